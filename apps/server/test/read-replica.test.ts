/**
 * DATABASE_READ_URL (lib/read-routing.ts): list reads go to the replica, their audit rows to the primary; a user who
 * just wrote reads the primary for a while (on any instance, through Redis); a failing replica falls back. A second
 * database on the local PostgreSQL stands in for the replica: the two start as copies, and a change made to one
 * alone shows which one answered.
 */
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, type Executor, withReplica } from '../src/db/client.ts';
import * as s from '../src/db/schema.ts';
import { createReadRouting, STICKY_MS } from '../src/lib/read-routing.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { createTestDatabase } from './support/database.ts';
import { REDIS_URL, redisReachable } from './support/services.ts';

const databaseUrl = inject('databaseUrl');

describe('DATABASE_READ_URL configuration', () => {
  it('needs DATABASE_URL beside it', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://h/replica' })).toThrow(/DATABASE_READ_URL needs DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://h/p', DATABASE_READ_URL: 'postgres://h/r' }).databaseReadUrl).toBe(
      'postgres://h/r',
    );
  });
});

describe.runIf(databaseUrl)('list reads on a read replica', () => {
  let primary: DatabaseHandle;
  let replica: DatabaseHandle;
  let t: TestApp;
  beforeAll(async () => {
    [primary, replica] = await Promise.all([createTestDatabase('demo'), createTestDatabase('demo')]);
    t = await buildTestApp({ database: withReplica(primary, replica) });
  });
  afterAll(() => t?.close());

  const audits = async (db: Executor, action: string, userId: string) =>
    (
      await db
        .select({ n: count() })
        .from(s.auditLog)
        .where(and(eq(s.auditLog.action, action), eq(s.auditLog.actorUserId, userId)))
    )[0]?.n ?? 0;

  it('reads lists from the replica and writes their audit rows on the primary; a write and its answer stay on the primary', async () => {
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const queueUrl = `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_ALL`;
    const first = await injectAs(t.app, morgan, { method: 'GET', url: queueUrl });
    expect(first.statusCode).toBe(200);
    const patientId = first.json().doctors[0].patients[0].id as string;
    // Only the replica is told the patient's new first name.
    await replica.db.update(s.patients).set({ firstName: 'Replicaonly' }).where(eq(s.patients.id, patientId));

    const auditsBefore = await audits(primary.db, 'action-needed.read', staff.userID);
    const staffQueue = await injectAs(t.app, staff, {
      method: 'GET',
      url: `/api/mdo/v2/users/${staff.userID}/action-needed?actionType=ACTION_NEEDED_ALL`,
    });
    expect(staffQueue.body).toContain('Replicaonly');
    const search = await injectAs(t.app, staff, {
      method: 'GET',
      url: `/api/mdo/v1/users/${staff.userID}/patients-search?searchText=Replicaonly`,
    });
    expect(search.statusCode).toBe(200);
    expect(search.body).toContain(patientId);
    expect(await audits(primary.db, 'action-needed.read', staff.userID)).toBe(auditsBefore + 1);
    // The row written on the primary names the patients the replica's answer showed (issue 49).
    const shown: string[] = staffQueue.json().doctors.flatMap((d: { patients: { id: string }[] }) => d.patients.map((p) => p.id));
    const [row] = await primary.db
      .select({ id: s.auditLog.id, details: s.auditLog.details })
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'action-needed.read'), eq(s.auditLog.actorUserId, staff.userID)))
      .orderBy(desc(s.auditLog.id))
      .limit(1);
    expect(shown.length).toBeGreaterThan(0);
    const named = (row?.details as { patientIds?: string[] } | undefined)?.patientIds ?? [];
    expect([...named].sort()).toEqual([...new Set(shown)].sort());
    const linked = await primary.db
      .select({ patientId: s.auditSubjects.patientId })
      .from(s.auditSubjects)
      .where(eq(s.auditSubjects.auditId, row?.id ?? -1));
    expect(linked.map((l) => l.patientId).sort()).toEqual([...new Set(shown)].sort());
    expect(await audits(primary.db, 'patients.search', staff.userID)).toBeGreaterThan(0);
    expect(await audits(replica.db, 'action-needed.read', staff.userID)).toBe(0);

    // Morgan writes: the write lands on the primary only, and Morgan's next list comes from the primary.
    const text = `Read-your-writes ${randomUUID()}`;
    const reply = await injectAs(t.app, morgan, {
      method: 'POST',
      url: `/api/mdo/v1/users/${morgan.userID}/rx-comment`,
      payload: { patientId, comment: text },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const onPrimary = await primary.db.select({ n: count() }).from(s.comments).where(eq(s.comments.body, text));
    const onReplica = await replica.db.select({ n: count() }).from(s.comments).where(eq(s.comments.body, text));
    expect([onPrimary[0]?.n, onReplica[0]?.n]).toEqual([1, 0]);
    const afterWrite = await injectAs(t.app, morgan, { method: 'GET', url: queueUrl });
    expect(afterWrite.body).not.toContain('Replicaonly');
    // Staff wrote nothing: still the replica.
    const staffAgain = await injectAs(t.app, staff, {
      method: 'GET',
      url: `/api/mdo/v2/users/${staff.userID}/action-needed?actionType=ACTION_NEEDED_ALL`,
    });
    expect(staffAgain.body).toContain('Replicaonly');
  });

  it('keeps a writer on the primary for the sticky window, on every instance sharing Redis, then returns to the replica', async () => {
    expect(await redisReachable(), `Redis must be reachable at ${REDIS_URL}`).toBe(true);
    let clock = 1_000_000;
    const redis = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    try {
      const [one, two] = redis.map((r) =>
        createReadRouting({ primary: primary.db, replica: replica.db, redis: r, now: () => clock }),
      );
      const entry = { actorUserId: null, action: 'replica.test', entityType: 'test' };
      const where = (routing: NonNullable<typeof one>, userId: string) =>
        routing.auditedList(userId, entry, async (db) => ({ body: db === replica.db ? 'replica' : 'primary', shown: null }));
      const userId = randomUUID();
      expect(await where(one as NonNullable<typeof one>, userId)).toBe('replica');
      await one?.noteWrite(userId);
      expect(await where(one as NonNullable<typeof one>, userId)).toBe('primary');
      expect(await where(two as NonNullable<typeof two>, userId), 'another instance sees the mark through Redis').toBe('primary');
      expect(await where(two as NonNullable<typeof two>, randomUUID())).toBe('replica');
      clock += STICKY_MS + 1;
      await redis[0]?.del(`hcp:wrote:${userId}`);
      expect(await where(one as NonNullable<typeof one>, userId)).toBe('replica');
    } finally {
      for (const r of redis) r.disconnect();
    }
  });

  it('answers from the primary when the replica fails, with one audit row', async () => {
    const broken = await createTestDatabase('empty');
    await broken.close();
    const failures: unknown[] = [];
    const routing = createReadRouting({
      primary: primary.db,
      replica: broken.db,
      redis: null,
      onReplicaError: (error) => failures.push(error),
    });
    const action = `replica.fallback.${randomUUID()}`;
    const answer = await routing.auditedList(
      null as unknown as string,
      { actorUserId: null, action, entityType: 'test' },
      (db, audit) =>
        db
          .execute(sql`with ${audit(sql`select null::uuid as patient_id where false`)} select 1 as one`)
          .then(() => ({ body: db === primary.db ? 'primary' : 'replica', shown: null })),
    );
    expect(answer).toBe('primary');
    expect(failures).toHaveLength(1);
    const rows = await primary.db.select({ n: count() }).from(s.auditLog).where(eq(s.auditLog.action, action));
    expect(rows[0]?.n).toBe(1);
  });
});
