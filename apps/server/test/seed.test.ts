import { isNpi, ORDER_STATUS_PENDING_PAYMENT_APPROVAL, PRIOR_AUTH_STATUSES, SUBSTITUTION_STATUSES } from '@hcp/contract';
import { verify } from '@node-rs/argon2';
import { count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import * as s from '../src/db/schema.ts';
import { ORDER_STATUSES } from '../src/seed/catalogue.ts';
import { generateDemoData } from '../src/seed/generate.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '../src/seed/index.ts';
import { TEST_NOW } from './support/constants.ts';
import { createTestDatabase } from './support/database.ts';

describe('generateDemoData', () => {
  it('is deterministic: same seed and clock, same rows', () => {
    const a = generateDemoData({ size: 'small', now: TEST_NOW });
    const b = generateDemoData({ size: 'small', now: TEST_NOW });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('has the documented small size', () => {
    const d = generateDemoData({ size: 'small', now: TEST_NOW });
    expect(d.tenants).toHaveLength(2);
    expect(d.mdOffices.length).toBeGreaterThanOrEqual(6);
    expect(d.mdStaff.length).toBeGreaterThanOrEqual(25);
    expect(d.patients).toHaveLength(200);
    expect(d.prescriptions).toHaveLength(800);
    expect(d.mdStaff.filter((m) => m.npi).every((m) => isNpi(m.npi as string))).toBe(true);
  });
});

describe('seeded demo database', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase('demo');
  });
  afterAll(() => database.close());

  it('covers every prior-auth, substitution and order status', async () => {
    const { db } = database;
    const pa = await db.selectDistinct({ v: s.prescriptions.priorAuthStatus }).from(s.prescriptions);
    const sub = await db.selectDistinct({ v: s.prescriptions.substitutionStatus }).from(s.prescriptions);
    const order = await db.selectDistinct({ v: s.prescriptions.orderStatus }).from(s.prescriptions);
    expect(pa.map((r) => r.v)).toEqual(expect.arrayContaining([...PRIOR_AUTH_STATUSES]));
    expect(sub.map((r) => r.v)).toEqual(expect.arrayContaining([...SUBSTITUTION_STATUSES]));
    expect(order.map((r) => r.v)).toEqual(expect.arrayContaining([...ORDER_STATUSES, ORDER_STATUS_PENDING_PAYMENT_APPROVAL]));
  });

  it('has every action type, wholesale and pending rows, postponed refills, unread comments and appeals', async () => {
    const { db } = database;
    const [row] = await db
      .select({
        refill: sql<number>`count(*) filter (where ${s.prescriptions.needsRefillAuth})::int`,
        phone: sql<number>`count(*) filter (where ${s.prescriptions.phoneException})::int`,
        appeal: sql<number>`count(*) filter (where ${s.prescriptions.hcpActionRequired})::int`,
        wholesale: sql<number>`count(*) filter (where ${s.prescriptions.isWholesale})::int`,
        pending: sql<number>`count(*) filter (where ${s.prescriptions.pending})::int`,
        postponedFuture: sql<number>`count(*) filter (where ${s.prescriptions.refillPostponedUntil} > ${TEST_NOW.toISOString().slice(0, 10)}::date)::int`,
        postponedPast: sql<number>`count(*) filter (where ${s.prescriptions.refillPostponedUntil} <= ${TEST_NOW.toISOString().slice(0, 10)}::date)::int`,
        lastDay: sql<number>`count(*) filter (where ${s.prescriptions.prescribedAt} > ${new Date(TEST_NOW.getTime() - 86_400_000).toISOString()}::timestamptz)::int`,
      })
      .from(s.prescriptions);
    for (const [key, value] of Object.entries(row ?? {})) expect(value, key).toBeGreaterThan(0);
    const [unread] = await db.select({ n: count() }).from(s.commentMentions).where(isNull(s.commentMentions.readAt));
    expect(unread?.n).toBeGreaterThan(0);
    const [appeals] = await db.select({ n: count() }).from(s.appeals);
    expect(appeals?.n).toBe(row?.appeal);
  });

  it('has the demo accounts, each signing in with the demo password', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const [user] = await database.db.select().from(s.users).where(eq(s.users.email, account.email));
      expect(user, account.email).toBeDefined();
      expect(await verify(user?.passwordHash as string, DEMO_PASSWORD)).toBe(true);
    }
    const [mfa] = await database.db.select().from(s.users).where(eq(s.users.email, 'dr.patel@demo.hcp'));
    expect(mfa?.mfaEnabled).toBe(true);
  });

  it('seeding again does nothing', async () => {
    const before = await database.db.select({ n: count() }).from(s.prescriptions);
    const result = await seedDemoData(database.db, { size: 'small', now: TEST_NOW });
    expect(result.seeded).toBe(false);
    expect(await database.db.select({ n: count() }).from(s.prescriptions)).toEqual(before);
  });
});

describe('seeding an empty database', () => {
  it('is all or nothing: a failure half-way leaves no rows', async () => {
    const database = await createTestDatabase('empty');
    try {
      // A clashing product NDC makes an insert half-way through the seed transaction fail.
      await database.db
        .insert(s.drugProducts)
        .values({ ndc: '65649-0303-03', name: 'Clash', manufacturer: 'Test', productLine: null });
      await expect(seedDemoData(database.db, { size: 'small', now: TEST_NOW })).rejects.toThrow();
      const [tenants] = await database.db.select({ n: count() }).from(s.tenants);
      const [patients] = await database.db.select({ n: count() }).from(s.patients);
      expect(tenants?.n).toBe(0);
      expect(patients?.n).toBe(0);
      await database.db.delete(s.drugProducts);
      const result = await seedDemoData(database.db, { size: 'small', now: TEST_NOW });
      expect(result.seeded).toBe(true);
      expect(result.counts.prescriptions).toBe(800);
    } finally {
      await database.close();
    }
  });
});
