/**
 * A new instance says ready only once it is warm (issue 45, part 5; decision 0053): `/readyz` answers 503 with
 * Retry-After until the warm-up has run, `/healthz` answers all along, and the warm-up writes nothing. On PostgreSQL
 * it opens every pooled connection.
 */
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { POOL_OPTIONS, wrapPool } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { createReadiness } from '../src/lib/warm-up.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { createScratchDatabase, postgresReachable } from './support/services.ts';

const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable)).map((t) => getTableName(t));

/** Every table's row count: the warm-up must leave each as it was. */
async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const result = await t.database.db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from "${table}"`));
    counts[table] = Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n);
  }
  return counts;
}

describe('warming up before saying ready', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('answers /readyz 503 with Retry-After until warm, /healthz all along, then ready', async () => {
    t = await buildTestApp({ env: { WARM_UP: 'on' } });
    const cold = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(cold.statusCode).toBe(503);
    expect(cold.headers['retry-after']).toBe('1');
    expect(cold.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/^Warming up/) });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    const before = await rowCounts(t);
    const report = await t.app.warmUp();
    // The embedded database is one connection; on PostgreSQL, every connection the pool may hold is open now.
    expect(report.connections).toBe(t.database.poolStats ? t.database.poolStats().total : 1);
    expect(report.connections).toBeGreaterThanOrEqual(1);
    // Nothing written.
    expect(await rowCounts(t)).toEqual(before);

    const warm = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(warm.statusCode).toBe(200);
    expect(warm.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('serves all the same when the warm-up fails: warming is never a reason to stay out', async () => {
    const readiness = createReadiness({
      enabled: true,
      warmConnections: async () => {
        throw new Error('connection refused');
      },
    });
    expect(readiness.warm).toBe(false);
    await expect(readiness.warmUp()).rejects.toThrow('connection refused');
    expect(readiness.warm).toBe(true);
  });
});

const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const pgHere = await postgresReachable(ADMIN_URL);

describe.skipIf(!pgHere)('on PostgreSQL', () => {
  it('opens every pooled connection, each having touched every table', async () => {
    const scratch = await createScratchDatabase(ADMIN_URL, 'hcp_warm');
    const pool = new pg.Pool({ connectionString: scratch.url, ...POOL_OPTIONS, max: 4 });
    const database = wrapPool(pool, () => scratch.drop());
    try {
      await database.migrate();
      expect(pool.totalCount).toBeLessThan(4);
      expect(await database.warmConnections()).toBe(4);
      expect(pool.totalCount).toBe(4);
      expect(pool.idleCount).toBe(4);
    } finally {
      await database.close();
    }
  });
});
