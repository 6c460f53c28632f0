/**
 * Outbound webhooks (issue 20). (1) Decision -> webhook received at a local receiver, p50/p95, with the worker woken
 * by NOTIFY, against the decision's own HTTP answer time (PGlite, small seed). (2) Deliveries per second with one
 * instance vs two on one PostgreSQL (DATABASE_URL; skipped without it): interleaved rounds (one, two, one, two…) of
 * a backlog of decisions over many prescriptions to a receiver that takes 5 ms per request; ratio two/one printed as
 * median with min and max.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { generateRequestId } from '@hcp/contract';
import pg from 'pg';
import { type DatabaseHandle, wrapPglite, wrapPool } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/index.ts';
import { createScratchDatabase } from '../../apps/server/test/support/services.ts';
import { benchSignIn, startBenchApp } from './bench-app.ts';
import { interleavedRatio, quantile } from './measure.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A receiver that answers 204 after `delayMs`, and calls `onBody` with each body. */
async function receiver(delayMs: number, onBody: (body: string) => void) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', async () => {
      if (delayMs) await sleep(delayMs);
      onBody(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => server.close() };
}

async function registerEndpoint(base: string, url: string, events: string[]) {
  const admin = await benchSignIn(base, 'admin@demo.hcp');
  const res = await fetch(`${base}/api/mdo/v1/webhook-endpoints`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${admin.accessToken}`,
      'x-user-id': admin.userID,
      'content-type': 'application/json',
      'x-request-id': generateRequestId(),
    },
    body: JSON.stringify({ url, events }),
  });
  if (res.status !== 201) throw new Error(`webhooks bench: endpoint ${res.status} ${await res.text()}`);
}

async function latency(): Promise<void> {
  const pglite = new PGlite();
  const database = wrapPglite(pglite);
  await database.migrate();
  await seedDemoData(database.db, { size: 'small' });
  const arrived = new Map<string, number>();
  const hook = await receiver(0, (body) => {
    const marker = /bench-(\d+)/.exec(body)?.[0];
    if (marker) arrived.set(marker, performance.now());
  });
  // Polling once a minute: what is measured is the NOTIFY wake-up, not the poll.
  const { app, base } = await startBenchApp(database, { WEBHOOK_POLL_MS: '60000' });
  await registerEndpoint(base, hook.url, ['prescription.created']);
  const doctor = await benchSignIn(base, 'dr.morgan@demo.hcp');
  const headers = {
    authorization: `Bearer ${doctor.accessToken}`,
    'x-user-id': doctor.userID,
    'content-type': 'application/json',
  };
  const patientId = (
    await pglite.query<{ id: string }>(
      `select p.id from patients p join users u on u.md_office_id = p.md_office_id where u.email = 'dr.morgan@demo.hcp' limit 1`,
    )
  ).rows[0]?.id;
  const productId = (await pglite.query<{ id: string }>('select id from drug_products where not is_controlled limit 1')).rows[0]
    ?.id;
  const received: number[] = [];
  const answered: number[] = [];
  let n = 0;
  /** One new prescription: answers [until its HTTP answer, until its webhook arrived] in ms. */
  const decide = async () => {
    const marker = `bench-${n++}`;
    const start = performance.now();
    const res = await fetch(`${base}/api/mdo/v1/users/${doctor.userID}/prescriptions`, {
      method: 'POST',
      headers: { ...headers, 'x-request-id': generateRequestId() },
      body: JSON.stringify({
        patient: { patientId },
        order: { productId, quantity: 30, daysSupply: 30, refills: 1, sig: `Take 1 daily ${marker}`, substitutionAllowed: true },
      }),
    });
    if (res.status !== 201) throw new Error(`webhooks bench: prescribe ${res.status} ${await res.text()}`);
    const answeredAt = performance.now() - start;
    while (!arrived.has(marker)) await sleep(1);
    return [answeredAt, (arrived.get(marker) as number) - start] as const;
  };
  // Each decision gives both figures; a round is 10 decisions, its subject the arrivals, its baseline the answers.
  let roundAnswers: number[] = [];
  await interleavedRatio(
    'webhook-decision-to-received (PGlite)',
    'decision -> webhook received, p95',
    'the decision answered, p95',
    5,
    async () => {
      const arrivals: number[] = [];
      roundAnswers = [];
      for (let i = 0; i < 10; i += 1) {
        const [answer, arrival] = await decide();
        roundAnswers.push(answer);
        arrivals.push(arrival);
      }
      answered.push(...roundAnswers);
      received.push(...arrivals);
      return quantile(arrivals, 0.95);
    },
    async () => quantile(roundAnswers, 0.95),
    () =>
      `p50 ${quantile(received, 0.5).toFixed(1)} ms, p95 ${quantile(received, 0.95).toFixed(1)} ms over ${received.length} new ` +
      `prescriptions (worker woken by NOTIFY; polling every 60 s); the decision alone p95 ${quantile(answered, 0.95).toFixed(1)} ms`,
  );
  await app.close();
  hook.close();
  await database.close();
}

async function throughputOneVsTwo(databaseUrl: string, seconds: number): Promise<void> {
  const scratch = await createScratchDatabase(databaseUrl, 'hcp_bench_webhooks');
  const handles: DatabaseHandle[] = [];
  const open = () => {
    const handle = wrapPool(new pg.Pool({ connectionString: scratch.url, max: 10 }));
    handles.push(handle);
    return handle;
  };
  const first = open();
  await first.migrate();
  await seedDemoData(first.db, { size: 'small' });
  let delivered = 0;
  const hook = await receiver(5, () => {
    delivered += 1;
  });
  const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
  pool.on('error', () => undefined);
  const env = { WEBHOOK_POLL_MS: '20' };
  const one = await startBenchApp(first, env);
  await registerEndpoint(one.base, hook.url, ['refill.postponed']);
  const two = await startBenchApp(open(), env);
  const prescriptions = (
    await pool.query<{ id: string }>(
      `select rx.id from prescriptions rx join md_offices o on o.id = rx.md_office_id
       join tenants t on t.id = o.tenant_id and t.key = 'main' order by rx.id limit 200`,
    )
  ).rows.map((r) => r.id);
  const backlog = Math.max(200, seconds * 60);

  /** Puts `backlog` decisions in the outbox and times how long the running workers take to deliver them all. */
  async function round(): Promise<number> {
    const before = delivered;
    const start = performance.now();
    await pool.query(
      `insert into outbox (channel, prescription_id, recipient, payload, event_type)
       select 'webhook', (array[${prescriptions.map((_, i) => `$${i + 1}`).join(',')}]::uuid[])[1 + g % ${prescriptions.length}],
              'pharmacy', '{}'::jsonb, 'refill.postponed'
       from generate_series(1, ${backlog}) g`,
      prescriptions,
    );
    await pool.query(`select pg_notify('hcp_decisions', '')`);
    while (delivered - before < backlog) await sleep(5);
    return backlog / ((performance.now() - start) / 1000);
  }

  // Interleaved: two instances, then one (the second's worker stopped), after an uncounted warm-up of each.
  await interleavedRatio(
    'webhook-deliveries-two-instances (PostgreSQL)',
    'deliveries/s with two instances',
    'one instance',
    5,
    async () => {
      two.app.webhookWorker.start();
      return round();
    },
    async () => {
      await two.app.webhookWorker.stop();
      return round();
    },
    (twoRate, oneRate) =>
      `${twoRate.toFixed(0)} vs ${oneRate.toFixed(0)} deliveries/s; backlog ${backlog} decisions over ` +
      `${prescriptions.length} prescriptions, receiver 5 ms per request, 2-core machine`,
  );
  await one.app.close();
  await two.app.close();
  hook.close();
  await pool.end();
  for (const handle of handles) await handle.close().catch(() => undefined);
  await scratch.drop();
}

export async function webhooksBench(seconds: number): Promise<void> {
  await latency();
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) await throughputOneVsTwo(databaseUrl, seconds);
  else console.log('webhook-deliveries-two-instances: skipped (set DATABASE_URL to a PostgreSQL to measure it)');
}
