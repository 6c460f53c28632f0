/**
 * PostgreSQL drops the app's connections (issue 45, first part): every backend of the app's database is terminated
 * (`pg_terminate_backend`, as a failover, a restart or a proxy recycling connections would) while sign-ins, list
 * reads, writes in transactions, the webhook worker and the digest worker run, round after round. The process stays
 * up (an unhandled 'error' event, which ended instances before, fails this file), every answer is 2xx or 503 with
 * Retry-After (never 500), and once the drops stop everything works again without a restart.
 *
 * Rounds are counted, not timed: each round starts its requests and its termination together and waits for all.
 * Runs against the machine's PostgreSQL (DATABASE_URL or 127.0.0.1:5432), on a database of its own.
 */
import type { AddressInfo } from 'node:net';
import { ACTION_NEEDED_QUERY_TYPES, generateRequestId, type Tokens } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POOL_OPTIONS, wrapPool } from '../src/db/client.ts';
import { loadReferenceData } from '../src/db/reference-data.ts';
import { seedDemoData } from '../src/seed/index.ts';
import { postponeDate, refillRequests } from './support/action-needed.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { openLiveStream } from './support/live-stream.ts';
import { postgresReachable } from './support/services.ts';

const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = 20;

const pgHere = await postgresReachable(ADMIN_URL);

describe.skipIf(!pgHere)('PostgreSQL drops every connection of the app, again and again', () => {
  const name = `hcp_drops_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  let t: TestApp;
  let morgan: Tokens;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const database = wrapPool(new pg.Pool({ connectionString: url.toString(), ...POOL_OPTIONS, max: 4 }), async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
    });
    await database.migrate();
    await loadReferenceData(database.db);
    await seedDemoData(database.db, { size: 'small', now: TEST_NOW });
    t = await buildTestApp({ database, now: () => TEST_NOW });
    morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await admin.end();
  });

  /** Ends every session of the app's database but the admin's own; answers how many it ended. */
  const dropAll = async () =>
    (
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
        name,
      ])
    ).rowCount ?? 0;

  it(`stays up through ${ROUNDS} rounds of drops, answering 2xx or 503 with Retry-After, and works again after`, async () => {
    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    let dropped = 0;
    let workerFailures = 0;
    const rx = (await refillRequests(t.app, morgan)).map((entry) => entry.prescription.id);
    const record = (what: string, res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const fine = res.statusCode < 300 || (res.statusCode === 503 && res.headers['retry-after'] === '2');
      if (!fine) wrong.push(`${what}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      const work = [
        injectAs(t.app, morgan, {
          method: 'GET',
          url: `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=${ACTION_NEEDED_QUERY_TYPES.refillAuth}`,
        }).then((res) => record('action needed', res)),
        injectAs(t.app, morgan, {
          method: 'POST',
          url: `/api/mdo/v1/prescriptions/${rx[round % rx.length]}/refills-postponed`,
          headers: { 'x-request-id': generateRequestId() },
          payload: { refillPostponedToDate: postponeDate(), senderName: 'Dr Morgan' },
        }).then((res) => {
          // A postponement already made in an earlier round is a clear 409, not a failure.
          if (res.statusCode === 409) statuses.set(409, (statuses.get(409) ?? 0) + 1);
          else record('postpone', res);
        }),
        t.app.inject({ method: 'GET', url: '/readyz' }).then((res) => {
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode !== 200 && res.statusCode !== 503) wrong.push(`readyz: ${res.statusCode}`);
        }),
        // The background workers' own rounds: a failed round is logged and the next one runs.
        t.app.webhookWorker.runOnce().catch(() => {
          workerFailures += 1;
        }),
        t.app.officeDigests.runOnce().catch(() => {
          workerFailures += 1;
        }),
        dropAll().then((n) => {
          dropped += n;
        }),
      ];
      await Promise.all(work);
    }
    expect(wrong).toEqual([]);
    expect(dropped).toBeGreaterThan(0);
    // After the drops: reads, writes and both workers work again on fresh connections, with no restart.
    const after = await injectAs(t.app, morgan, {
      method: 'GET',
      url: `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=${ACTION_NEEDED_QUERY_TYPES.refillAuth}`,
    });
    expect(after.statusCode).toBe(200);
    await expect(t.app.webhookWorker.runOnce()).resolves.toBeDefined();
    await expect(t.app.officeDigests.runOnce()).resolves.toBeTypeOf('number');
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    process.stdout.write(
      `\ndatabase drops: ${ROUNDS} rounds, ${dropped} connections ended, answers ${JSON.stringify(Object.fromEntries(statuses))}, ${workerFailures} worker rounds failed and the next ran, 0 crashes\n`,
    );
  }, 120_000);

  it('tells an open live-update stream to refetch once its LISTEN connection is back (a NOTIFY may have been lost)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const stream = await openLiveStream(base, morgan);
    try {
      const seen = (what: (e: { event: string; data: string }) => boolean) => stream.events.some(what);
      await expect.poll(() => seen((e) => e.event === 'ready'), { timeout: 10_000 }).toBe(true);
      expect(await dropAll()).toBeGreaterThan(0);
      // The hub's LISTEN connection was among those ended: once it is back, the stream hears that it may have missed
      // something (the event itself is the proof; the poll's bound is only this test's patience).
      await expect
        .poll(() => seen((e) => e.event === 'items' && e.data === '{"changed":true,"resync":true}'), { timeout: 30_000 })
        .toBe(true);
      // And the connection works again: a decision is heard as an ordinary change. The rounds above may have
      // postponed every refill request there was, so one of the practice's prescriptions is made due again first.
      const before = stream.events.length;
      const found = await t.database.db.execute(sql`update prescriptions set needs_refill_auth = true,
          refill_postponed_until = null
        where id = (select rx.id from prescriptions rx join office_members m on m.md_office_id = rx.md_office_id
          join users u on u.md_staff_id = m.md_staff_id where u.id = ${morgan.userID} order by rx.id limit 1)
        returning id`);
      const rx = (found as unknown as { rows: { id: string }[] }).rows[0]?.id;
      // A 503 wrote nothing (the pool handed out a connection the drop ended, and dropped it): the next try is a new
      // request at once, decided by the answer, not by a pause. The pool holds four connections, so a few suffice.
      let res = await injectAs(t.app, morgan, { method: 'GET', url: '/healthz' });
      for (let attempt = 0; attempt < 10; attempt += 1) {
        res = await injectAs(t.app, morgan, {
          method: 'POST',
          url: `/api/mdo/v1/prescriptions/${rx}/refills-postponed`,
          headers: { 'x-request-id': generateRequestId() },
          payload: { refillPostponedToDate: postponeDate(), senderName: 'Dr Morgan' },
        });
        if (res.statusCode !== 503) break;
      }
      expect(res.statusCode, res.body).toBe(200);
      await expect.poll(() => stream.events.slice(before).some((e) => e.event === 'items'), { timeout: 30_000 }).toBe(true);
    } finally {
      stream.close();
    }
  }, 90_000);
});
