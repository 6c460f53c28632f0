/**
 * Inserts the demo data once. The whole seed is one transaction under an advisory lock, so two
 * instances starting together, or a crash half-way, never leave a half-seeded database.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { hashPassword } from '../lib/passwords.ts';
import { DEMO_PASSWORD } from './catalogue.ts';
import { generateDemoData, type SeedSize } from './generate.ts';

export { DEMO_PASSWORD } from './catalogue.ts';
export { DEMO_ACCOUNTS } from './generate.ts';

const SEED_MARKER = 'demoSeed';
const SEED_LOCK_ID = 7_304_211;
const BATCH = 1000;

export interface SeedResult {
  seeded: boolean;
  counts: Record<string, number>;
}

async function insertBatches<T extends Record<string, unknown>>(
  tx: Executor,
  table: Parameters<Executor['insert']>[0],
  rows: T[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx.insert(table).values(rows.slice(i, i + BATCH) as never);
  }
}

export async function isSeeded(db: Executor): Promise<boolean> {
  const rows = await db.select().from(schema.appSettings).where(eq(schema.appSettings.key, SEED_MARKER));
  return rows.length > 0;
}

export async function seedDemoData(db: Database, options: { size: SeedSize; now?: Date; seed?: number }): Promise<SeedResult> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    if (await isSeeded(tx)) return { seeded: false, counts: {} };

    const data = generateDemoData({ size: options.size, now, seed: options.seed });
    // One hash per demo account (own salt each); other users have no password and cannot sign in.
    const users = await Promise.all(
      data.users.map(async ({ demoKey, ...user }) => ({
        ...user,
        passwordHash: demoKey ? await hashPassword(DEMO_PASSWORD) : null,
      })),
    );

    // Parents before children, so every foreign key points at a row already inserted.
    const inOrder: [Parameters<Executor['insert']>[0], Record<string, unknown>[]][] = [
      [schema.tenants, data.tenants],
      [schema.featureFlags, data.featureFlags],
      [schema.appSettings, data.appSettings],
      [schema.drugProducts, data.drugProducts],
      [schema.drugAlternatives, data.drugAlternatives],
      [schema.mdOffices, data.mdOffices],
      [schema.mdStaff, data.mdStaff],
      [schema.officeMembers, data.officeMembers],
      [schema.users, users],
      [schema.patients, data.patients],
      [schema.prescriptions, data.prescriptions],
      [schema.prescriptionEvents, data.prescriptionEvents],
      [schema.comments, data.comments],
      [schema.commentMentions, data.commentMentions],
      [schema.appeals, data.appeals],
    ];
    for (const [table, rows] of inOrder) await insertBatches(tx, table, rows);
    await tx.insert(schema.appSettings).values({
      key: SEED_MARKER,
      value: { size: options.size, seededAt: now.toISOString() },
    });

    const counts = Object.fromEntries(Object.entries(data).map(([key, rows]) => [key, (rows as unknown[]).length]));
    return { seeded: true, counts };
  });
}
