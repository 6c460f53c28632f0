/**
 * Webhook delivery survives crashes and runs on several instances (issue 20). The real server runs as a child
 * process on the engine of this run; decisions are made while it delivers to a slow local receiver and it is
 * killed with SIGKILL mid-delivery and started again: afterwards every decision has reached the receiver, and a
 * message seen twice carries the same webhook-id. On PostgreSQL, two instances deliver side by side and each
 * message arrives exactly once. Prints decisions, messages received, duplicates.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateRequestId } from '@hcp/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, Server, signInOver } from './support/child-server.ts';
import { type Engine, prepareEngine } from './support/engine.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WORKER_ENV = { WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_CAP_MS: '500' };

interface Receiver {
  url: string;
  /** webhook-id -> times received (verified ones only). */
  seen: Map<string, number>;
  secret: string;
  close(): Promise<void>;
}

async function startReceiver(delayMs: number): Promise<Receiver> {
  const receiver: Receiver = { url: '', seen: new Map(), secret: '', close: async () => undefined };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', async () => {
      await sleep(delayMs);
      try {
        new Webhook(receiver.secret).verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>);
      } catch {
        response.writeHead(401).end();
        return;
      }
      const id = String(request.headers['webhook-id']);
      receiver.seen.set(id, (receiver.seen.get(id) ?? 0) + 1);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** Registers an endpoint for every decision through the admin API of a running instance. */
async function register(base: string, receiver: Receiver) {
  const admin = await signInOver(base, 'admin@demo.hcp');
  const res = await fetch(`${base}/api/mdo/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { ...admin.headers, 'content-type': 'application/json', 'x-request-id': generateRequestId() },
    body: JSON.stringify({ url: receiver.url, events: ['prescription.created', 'refill.postponed'] }),
  });
  expect(res.status).toBe(201);
  receiver.secret = ((await res.json()) as { secret: string }).secret;
}

/** A new prescription for the prescriber's first patient: one decision, acknowledged (retried until it is). */
async function prescribe(bases: string[], n: number) {
  const base = bases[n % bases.length] as string;
  const deadline = Date.now() + 120_000;
  const requestId = generateRequestId();
  while (Date.now() < deadline) {
    try {
      const session = await signInOver(base, 'dr.morgan@demo.hcp');
      const headers = { ...session.headers, 'content-type': 'application/json' };
      const list = (await (
        await fetch(`${base}/api/mdo/v2/users/${session.userId}/action-needed?actionType=ACTION_NEEDED_ALL`, { headers })
      ).json()) as { doctors: { patients: { id: string }[] }[] };
      const patientId = list.doctors[0]?.patients[0]?.id as string;
      const catalogue = (await (await fetch(`${base}/api/mdo/v1/drug-catalogue?searchText=ator`, { headers })).json()) as {
        id: string;
        isControlled: boolean;
      }[];
      const productId = catalogue.find((p) => !p.isControlled)?.id as string;
      const res = await fetch(`${base}/api/mdo/v1/users/${session.userId}/prescriptions`, {
        method: 'POST',
        headers: { ...headers, 'x-request-id': requestId },
        body: JSON.stringify({
          patient: { patientId },
          order: {
            productId,
            quantity: 30,
            daysSupply: 30,
            refills: 1,
            sig: `Take 1 daily webhook-${n}`,
            substitutionAllowed: true,
          },
        }),
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status === 201 || res.status === 200) return;
    } catch {
      // down: being restarted
    }
    await sleep(200);
  }
  throw new Error(`decision ${n} never acknowledged`);
}

async function decisionsAndDeliveries(engine: Engine) {
  const [row] = await engine.query<{ decisions: string; deliveries: string; delivered: string; dead: string }>(
    `select (select count(*) from outbox where event_type = 'prescription.created') as decisions,
            (select count(*) from webhook_deliveries) as deliveries,
            (select count(*) from webhook_deliveries where status = 'delivered') as delivered,
            (select count(*) from webhook_deliveries where status = 'dead') as dead`,
  );
  return {
    decisions: Number(row?.decisions),
    deliveries: Number(row?.deliveries),
    delivered: Number(row?.delivered),
    dead: Number(row?.dead),
  };
}

async function waitFor(condition: () => Promise<boolean> | boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(200);
  }
  return false;
}

const servers: Server[] = [];
const engines: Engine[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const server of servers) await server.kill();
  for (const engine of engines) await engine.close();
  for (const receiver of receivers) await receiver.close();
});

describe('webhook durability', () => {
  it('delivers every decision after SIGKILLs mid-delivery; a message seen twice has the same webhook-id', async () => {
    const engine = await prepareEngine();
    engines.push(engine);
    const receiver = await startReceiver(150);
    receivers.push(receiver);
    const server = new Server(await freePort(), { ...engine.env, ...WORKER_ENV });
    servers.push(server);
    await server.start();
    await register(server.base, receiver);

    const DECISIONS = 24;
    let made = 0;
    const writer = (async () => {
      while (made < DECISIONS) await prescribe([server.base], made++);
    })();
    for (let kill = 0; kill < 2; kill += 1) {
      // Kill once messages are on their way (some received, the receiver holding others open).
      await waitFor(() => receiver.seen.size > kill * 8 + 2, 60_000);
      await server.kill();
      await sleep(200);
      await server.start();
    }
    await writer;
    await server.stop();
    await server.start();

    // The embedded database is one process's: the data is read after the server stopped.
    const delivered = await waitFor(() => receiver.seen.size >= DECISIONS, 60_000);
    await sleep(1000);
    await server.stop();
    const counts = await decisionsAndDeliveries(engine);
    const duplicates = [...receiver.seen.values()].reduce((n, times) => n + times - 1, 0);
    console.log(
      `webhook crash safety (${engine.name}): ${counts.decisions} decisions, ${counts.deliveries} deliveries, ` +
        `${receiver.seen.size} distinct messages received, ${duplicates} received again with the same webhook-id, ` +
        `${counts.deliveries - receiver.seen.size} lost`,
    );
    expect(delivered).toBe(true);
    expect(counts.decisions).toBe(DECISIONS);
    expect(counts.deliveries).toBe(counts.decisions);
    // At least once: a message the receiver took just before a stop is recorded on the next start, never lost.
    expect(counts.dead).toBe(0);
    // Every delivery id was received; nothing arrived under an id the server does not know.
    const ids = await engine.query<{ id: string }>('select id from webhook_deliveries');
    expect(new Set(receiver.seen.keys())).toEqual(new Set(ids.map((r) => r.id)));
  }, 300_000);

  it.skipIf(!inject('databaseUrl'))(
    'two instances on one PostgreSQL deliver each message exactly once',
    async () => {
      const engine = await prepareEngine();
      engines.push(engine);
      const receiver = await startReceiver(20);
      receivers.push(receiver);
      const a = new Server(await freePort(), { ...engine.env, ...WORKER_ENV });
      servers.push(a);
      await a.start();
      const b = new Server(await freePort(), { ...engine.env, ...WORKER_ENV, SEED_DEMO: 'off' });
      servers.push(b);
      await b.start();
      await register(a.base, receiver);
      const DECISIONS = 30;
      await Promise.all(
        Array.from({ length: 3 }, async (_, lane) => {
          for (let n = lane; n < DECISIONS; n += 3) await prescribe([a.base, b.base], n);
        }),
      );
      const done = await waitFor(async () => (await decisionsAndDeliveries(engine)).delivered >= DECISIONS, 60_000);
      const counts = await decisionsAndDeliveries(engine);
      const repeated = [...receiver.seen.values()].filter((times) => times > 1).length;
      console.log(
        `webhooks on two instances: ${counts.decisions} decisions, ${receiver.seen.size} messages, ${repeated} received twice`,
      );
      expect(done).toBe(true);
      expect(receiver.seen.size).toBe(DECISIONS);
      expect(repeated).toBe(0);
    },
    300_000,
  );
});
