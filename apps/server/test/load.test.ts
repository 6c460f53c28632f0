/**
 * Load (issue 18): a steady rate of requests for 60 seconds, reads and writes mixed as a morning at a practice
 * (Action Needed, Rx list, patient search, comments, the timeline, replies and new prescriptions), from an open
 * loop (requests leave on schedule whatever the answers do), against the real server on PostgreSQL: first one
 * instance, then two sharing PostgreSQL and Redis with the requests dealt between them. Every answer must be a
 * success; p50/p95/p99 are printed. Runs with LOAD_TEST=1 on PostgreSQL (`npm run test:load`, and `.ci/run`);
 * LOAD_RATE and LOAD_SECONDS change the load.
 *
 * The issue asks for 300 a second. On the 2-core CI machine, where this generator, PostgreSQL, Redis and the
 * server(s) share both cores, the mix saturates near 150-200 a second (measured: at 200/s the median answer
 * took 0.3-0.9 s and two instances were slower than one), so CI runs 100 a second, which it holds with no error;
 * `LOAD_RATE=300 npm run test:load` is the target on a machine that gives the server its own cores.
 */
import { generateRequestId } from '@hcp/contract';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, Server, signInOver } from './support/child-server.ts';
import { createScratchDatabase, REDIS_URL } from './support/services.ts';

const RATE = Number(process.env.LOAD_RATE ?? 100);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** The busy practice (issue 45, part 6): its Action Needed list holds this many items. */
const BUSY_ITEMS = Number(process.env.LOAD_BUSY_ITEMS ?? 260);
const BUSY_RATE = Number(process.env.LOAD_BUSY_RATE ?? 150);
const BUSY_SECONDS = Number(process.env.LOAD_BUSY_SECONDS ?? 30);
/** A cold instance (issue 45, part 5): the mix from the moment it says it is ready. */
const COLD_RATE = Number(process.env.LOAD_COLD_RATE ?? 200);
const COLD_SECONDS = Number(process.env.LOAD_COLD_SECONDS ?? 12);
const COLD_ROUNDS = Number(process.env.LOAD_COLD_ROUNDS ?? 1);
const enabled = Boolean(process.env.LOAD_TEST) && Boolean(inject('databaseUrl'));

interface Session {
  userId: string;
  headers: Record<string, string>;
}
interface Op {
  name: string;
  weight: number;
  run: (base: string, s: Session, context: Context) => Promise<Response>;
}
interface Context {
  /** New prescriptions come from the prescriber whichever session's turn it is (staff do not prescribe). */
  prescriber: Session;
  patientId: string;
  productId: string;
  rxIds: string[];
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const post = (base: string, s: Session, url: string, body: unknown) =>
  fetch(`${base}${url}`, {
    method: 'POST',
    headers: { ...s.headers, 'content-type': 'application/json', 'x-request-id': generateRequestId() },
    body: JSON.stringify(body),
  });
const get = (base: string, s: Session, url: string) => fetch(`${base}${url}`, { headers: s.headers });

const OPS: Op[] = [
  {
    name: 'action needed',
    weight: 25,
    run: (b, s) => get(b, s, `/api/mdo/v2/users/${s.userId}/action-needed?actionType=ACTION_NEEDED_ALL`),
  },
  {
    name: 'rx list',
    weight: 12,
    run: (b, s) => get(b, s, `/api/mdo/v1/users/${s.userId}/rx-list?startdate=${day(-30)}&enddate=${day(0)}`),
  },
  { name: 'patient search', weight: 12, run: (b, s) => get(b, s, `/api/mdo/v1/users/${s.userId}/patients-search?searchText=an`) },
  { name: 'user details', weight: 10, run: (b, s) => get(b, s, `/api/mdo/v1/users/${s.userId}/mdo-user-details`) },
  {
    name: 'new comments',
    weight: 8,
    run: (b, s) => get(b, s, `/api/mdo/v2/users/${s.userId}/doctor-list-search?newComments=true`),
  },
  {
    name: 'timeline',
    weight: 8,
    run: (b, s, c) => get(b, s, `/api/mdo/v1/prescriptions/${c.rxIds[Math.floor(Math.random() * c.rxIds.length)]}/events`),
  },
  {
    name: 'reply',
    weight: 17,
    run: (b, s, c) =>
      post(b, s, `/api/mdo/v1/users/${s.userId}/rx-comment`, { patientId: c.patientId, comment: 'Load test reply.' }),
  },
  {
    name: 'prescribe',
    weight: 8,
    run: (b, _s, c) =>
      post(b, c.prescriber, `/api/mdo/v1/users/${c.prescriber.userId}/prescriptions`, {
        patient: { patientId: c.patientId },
        order: {
          productId: c.productId,
          quantity: 30,
          daysSupply: 30,
          refills: 1,
          sig: 'Take 1 daily',
          substitutionAllowed: true,
        },
      }),
  },
];
const TOTAL_WEIGHT = OPS.reduce((n, op) => n + op.weight, 0);
const pick = () => {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const op of OPS) {
    roll -= op.weight;
    if (roll < 0) return op;
  }
  return OPS[0] as Op;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function drive(bases: string[], sessions: Session[], context: Context, rate = RATE, seconds = SECONDS) {
  const latencies: number[] = [];
  const byOp = new Map<string, number[]>();
  const errors: string[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  /** When each request left (s after the start) and how long it took (ms). */
  const timeline: [number, number][] = [];
  const total = rate * seconds;
  let sent = 0;
  // Open loop: every 10 ms, send what the schedule says is due by now.
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    for (; sent < due; sent += 1) {
      const op = pick();
      const base = bases[sent % bases.length] as string;
      const session = sessions[sent % sessions.length] as Session;
      const t0 = performance.now();
      pending.push(
        op.run(base, session, context).then(
          async (res) => {
            await res.arrayBuffer();
            const ms = performance.now() - t0;
            latencies.push(ms);
            timeline.push([(t0 - started) / 1000, ms]);
            const list = byOp.get(op.name) ?? [];
            list.push(ms);
            byOp.set(op.name, list);
            if (!res.ok && errors.length < 20) errors.push(`${op.name}: ${res.status}`);
            else if (!res.ok) errors.push('');
          },
          (error: Error) => void errors.push(`${op.name}: ${error.message}`),
        ),
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const sendSeconds = (performance.now() - started) / 1000;
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  const perOp = [...byOp.entries()]
    .map(
      ([name, list]) =>
        `${name} ${percentile(
          list.sort((a, b) => a - b),
          50,
        ).toFixed(0)}`,
    )
    .join(', ');
  /** p95 of the requests that left in each window of `seconds`. */
  const p95ByWindow = (seconds: number) => {
    const windows: number[][] = [];
    for (const [at, ms] of timeline) {
      const window = Math.floor(at / seconds);
      windows[window] = [...(windows[window] ?? []), ms];
    }
    return [...windows].map((w) =>
      Math.round(
        percentile(
          (w ?? []).sort((a, b) => a - b),
          95,
        ),
      ),
    );
  };
  return {
    p95ByWindow,
    perOp,
    sent,
    sendSeconds,
    errors,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
}

/** Dr Morgan and Staff Lee signed in, and what the mix needs: a patient, a product, prescriptions to read. */
async function signInAndLook(base: string): Promise<{ sessions: Session[]; context: Context }> {
  const sessions = await Promise.all(['dr.morgan@demo.hcp', 'staff.lee@demo.hcp'].map((e) => signInOver(base, e)));
  const morgan = sessions[0] as Session;
  const list = (await (
    await get(base, morgan, `/api/mdo/v2/users/${morgan.userId}/action-needed?actionType=ACTION_NEEDED_ALL`)
  ).json()) as {
    doctors: { patients: { id: string; prescriptions: { id: string }[] }[] }[];
  };
  const patients = list.doctors.flatMap((d) => d.patients);
  const catalogue = (await (await get(base, morgan, '/api/mdo/v1/drug-catalogue?searchText=ator')).json()) as {
    id: string;
    isControlled: boolean;
  }[];
  const context: Context = {
    prescriber: morgan,
    patientId: patients[0]?.id as string,
    productId: catalogue.find((p) => !p.isControlled)?.id as string,
    rxIds: patients.flatMap((p) => p.prescriptions.map((rx) => rx.id)),
  };
  return { sessions, context };
}

/**
 * A busy practice (issue 45, part 6): Dr Morgan's practice gets `items` prescriptions needing a refill
 * authorisation (those it has, then copies of them), so its Action Needed list is that long.
 */
async function makeBusy(url: string, items: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const offices = (
      await client.query<{ id: string }>(
        `select m.md_office_id as id from office_members m join users u on u.md_staff_id = m.md_staff_id where u.email = 'dr.morgan@demo.hcp'`,
      )
    ).rows.map((r) => r.id);
    await client.query(
      'update prescriptions set needs_refill_auth = true, refill_postponed_until = null where md_office_id = any($1::uuid[])',
      [offices],
    );
    const have = Number(
      (
        await client.query<{ n: string }>('select count(*) as n from prescriptions where md_office_id = any($1::uuid[])', [
          offices,
        ])
      ).rows[0]?.n,
    );
    const columns = (
      await client.query<{ name: string }>(
        `select column_name as name from information_schema.columns where table_name = 'prescriptions' and column_name <> 'id' order by ordinal_position`,
      )
    ).rows.map((r) => `"${r.name}"`);
    for (let added = 0; added < items - have; added += have) {
      await client.query(
        `insert into prescriptions (id, ${columns.join(', ')}) select gen_random_uuid(), ${columns.join(', ')}
         from prescriptions where md_office_id = any($1::uuid[]) order by id limit $2`,
        [offices, Math.min(have, items - have - added)],
      );
    }
  } finally {
    await client.end();
  }
}

const servers: Server[] = [];
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;
afterAll(async () => {
  for (const server of servers) await server.stop();
  await scratch?.drop();
});

describe.skipIf(!enabled)('load', () => {
  it(`answers ${RATE} mixed requests a second for ${SECONDS} s without an error, on one instance and on two`, async () => {
    const databaseUrl = inject('databaseUrl');
    scratch = await createScratchDatabase(databaseUrl, 'hcp_load');
    const name = scratch.name;
    const url = scratch.url;
    const common = { DATABASE_URL: url, DATA_DIR: `/tmp/${name}`, IDEMPOTENCY_ABANDON_SECONDS: '60' };

    const a = new Server(await freePort(), common);
    servers.push(a);
    await a.start();
    const { sessions, context } = await signInAndLook(a.base);
    const one = await drive([a.base], sessions, context);
    // Two instances sharing PostgreSQL and Redis (rate limits, the token deny-list), the requests dealt between them.
    await a.stop();
    const shared = { ...common, REDIS_URL };
    const a2 = new Server(a.port, shared);
    const b = new Server(await freePort(), shared);
    servers.push(a2, b);
    await Promise.all([a2.start(), b.start()]);
    const two = await drive([a2.base, b.base], sessions, context);

    const line = (label: string, r: Awaited<ReturnType<typeof drive>>) =>
      `load, ${label}: ${r.sent} requests at ${Math.round(r.sent / r.sendSeconds)}/s for ${r.sendSeconds.toFixed(0)} s, ${r.errors.length} errors; p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (p50 per kind, ms: ${r.perOp})`;
    process.stdout.write(`\n${line('one instance on PostgreSQL', one)}\n${line('two instances on PostgreSQL + Redis', two)}\n`);
    expect(one.errors.filter(Boolean)).toEqual([]);
    expect(two.errors.filter(Boolean)).toEqual([]);
    expect(one.errors.length + two.errors.length).toBe(0);
    expect(one.sent).toBe(RATE * SECONDS);
    expect(two.sent).toBe(RATE * SECONDS);
  }, 900_000);

  it(`a busy practice: ${BUSY_RATE} a second of the same mix with a ${BUSY_ITEMS}-item Action Needed list, one instance`, async () => {
    const databaseUrl = inject('databaseUrl');
    const busy = await createScratchDatabase(databaseUrl, 'hcp_busy');
    const server = new Server(await freePort(), {
      DATABASE_URL: busy.url,
      DATA_DIR: `/tmp/${busy.name}`,
      IDEMPOTENCY_ABANDON_SECONDS: '60',
    });
    try {
      await server.start();
      await makeBusy(busy.url, BUSY_ITEMS);
      const { sessions, context } = await signInAndLook(server.base);
      const morgan = sessions[0] as Session;
      const list = await fetch(`${server.base}/api/mdo/v2/users/${morgan.userId}/action-needed?actionType=ACTION_NEEDED_ALL`, {
        headers: { ...morgan.headers, 'accept-encoding': 'identity' },
      });
      const body = await list.text();
      const items = (body.match(/"needsRefillAuth"/g) ?? []).length;
      expect(items).toBeGreaterThanOrEqual(BUSY_ITEMS);
      const run = await drive([server.base], sessions, context, BUSY_RATE, BUSY_SECONDS);
      process.stdout.write(
        `\nload, a busy practice (${items} items, ${Math.round(body.length / 1024)} KB of JSON): ${run.sent} requests at ${Math.round(run.sent / run.sendSeconds)}/s, ${run.errors.length} errors; p50 ${run.p50.toFixed(1)} ms, p95 ${run.p95.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms (p50 per kind, ms: ${run.perOp})\n`,
      );
      expect(run.errors.filter(Boolean)).toEqual([]);
      expect(run.sent).toBe(BUSY_RATE * BUSY_SECONDS);
    } finally {
      await server.stop();
      await busy.drop();
    }
  }, 900_000);

  it(`a cold instance: ${COLD_RATE} a second of the mix from the moment /readyz says ready, with and without its warm-up`, async () => {
    const databaseUrl = inject('databaseUrl');
    const cold = await createScratchDatabase(databaseUrl, 'hcp_cold');
    const port = await freePort();
    // Seeded once; then each round is a fresh process (cold code, no pooled connections), warmed up or not.
    const seeder = new Server(port, { DATABASE_URL: cold.url, DATA_DIR: `/tmp/${cold.name}` });
    const lines: string[] = [];
    try {
      await seeder.start();
      const { sessions, context } = await signInAndLook(seeder.base);
      await seeder.stop();
      // Interleaved rounds: without, with, without, with...
      for (let round = 0; round < COLD_ROUNDS; round += 1) {
        for (const warmUp of ['off', 'on'] as const) {
          const server = new Server(port, { DATABASE_URL: cold.url, DATA_DIR: `/tmp/${cold.name}`, WARM_UP: warmUp });
          try {
            await server.start();
            const run = await drive([server.base], sessions, context, COLD_RATE, COLD_SECONDS);
            expect(run.errors.filter(Boolean)).toEqual([]);
            lines.push(
              `load, a cold instance, warm-up ${warmUp}: p95 by 2 s from ready ${run.p95ByWindow(2).join(' / ')} ms; p50 ${run.p50.toFixed(1)} ms, p95 ${run.p95.toFixed(1)} ms over ${COLD_SECONDS} s at ${COLD_RATE}/s`,
            );
          } finally {
            await server.stop();
          }
        }
      }
      process.stdout.write(`\n${lines.join('\n')}\n`);
    } finally {
      await cold.drop();
    }
  }, 900_000);
});
