/**
 * The database handles (db/client.ts): Drizzle's per-query parsers set once on PGlite, same results; marked list
 * statements prepared once per PostgreSQL connection.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  arrayParam,
  type DatabaseHandle,
  PREPARED_MARKER,
  preparedName,
  selectJsonText,
  wrapPglite,
  wrapPool,
} from '../src/db/client.ts';
import { createScratchDatabase } from './support/services.ts';

const databaseUrl = inject('databaseUrl');

let client: PGlite;
let database: DatabaseHandle;
const options: unknown[] = [];
beforeAll(async () => {
  client = new PGlite();
  await client.waitReady;
  const query = client.query.bind(client);
  // Records what each statement asks PGlite for.
  client.query = ((text: string, params?: unknown[], opts?: unknown) => {
    options.push(opts);
    return query(text, params, opts as never);
  }) as typeof client.query;
  database = wrapPglite(client);
});
afterAll(() => database.close());

const PROBE = sql`select timestamptz '2026-11-20 15:00:00+00' as at, date '2026-11-20' as day, interval '1 day' as span,
  array[timestamp '2026-11-20 15:00:00'] as stamps, 1.50::numeric as price`;

describe('PGlite through Drizzle', () => {
  it('keeps dates, timestamps and intervals as text, in and out of transactions, without sending parsers each time', async () => {
    const outside = (await database.db.execute(PROBE)) as unknown as { rows: Record<string, unknown>[] };
    const inside = await database.db.transaction(
      async (tx) => (await tx.execute(PROBE)) as unknown as { rows: Record<string, unknown>[] },
    );
    for (const { rows } of [outside, inside]) {
      expect(rows[0]).toMatchObject({ day: '2026-11-20', span: '1 day', price: '1.50' });
      expect(typeof rows[0]?.at).toBe('string');
      // As Drizzle asks: timestamp arrays as PostgreSQL's own text, which its column types then read.
      expect(rows[0]?.stamps).toBe('{"2026-11-20 15:00:00"}');
    }
    expect(options.length).toBeGreaterThanOrEqual(1);
    expect(options.filter((o) => (o as { parsers?: unknown } | undefined)?.parsers)).toEqual([]);
  });
});

describe('array parameters', () => {
  it('carry any text as one parameter: commas, quotes, backslashes and braces come back as they went', async () => {
    const values = ['plain', 'a,b', 'say "hi"', 'back\\slash', '{brace}', ''];
    const { rows } = (await database.db.execute(sql`select unnest(${arrayParam(values, 'text')}) as v`)) as unknown as {
      rows: { v: string }[];
    };
    expect(rows.map((r) => r.v)).toEqual(values);
  });
});

describe('prepared list statements', () => {
  it('names a marked statement by its text and leaves the others unnamed', () => {
    const text = `${PREPARED_MARKER} select 1`;
    expect(preparedName(text)).toMatch(/^hcp_[0-9a-f]{20}$/);
    expect(preparedName(text)).toBe(preparedName(text));
    expect(preparedName(`${PREPARED_MARKER} select 2`)).not.toBe(preparedName(text));
    expect(preparedName('select 1')).toBeUndefined();
  });

  it('gives the same rows on PGlite, where the mark is a comment', async () => {
    const body = await selectJsonText(database.db, sql`select json_build_object('n', ${7}::int)::text as body`, '{}', {
      prepared: true,
    });
    expect(JSON.parse(body)).toEqual({ n: 7 });
  });

  it.runIf(databaseUrl)('plans it once per PostgreSQL connection, in and out of a transaction', async () => {
    const scratch = await createScratchDatabase(databaseUrl, 'hcp_prepared');
    const pool = new pg.Pool({ connectionString: scratch.url, max: 1 });
    const handle = wrapPool(pool);
    try {
      const list = (n: number) => sql`select json_build_object('n', ${n}::int, 'at', ${'2026-11-27'}::date)::text as body`;
      const bodies = [
        await selectJsonText(handle.db, list(1), '{}', { prepared: true }),
        await selectJsonText(handle.db, list(2), '{}', { prepared: true }),
        await handle.db.transaction((tx) => selectJsonText(tx, list(3), '{}', { prepared: true })),
        await selectJsonText(handle.db, list(4), '{}'),
      ];
      expect(bodies.map((b) => JSON.parse(b).n)).toEqual([1, 2, 3, 4]);
      // One connection: one prepared statement for the three marked runs, none for the unmarked one.
      const { rows } = await pool.query(`select statement from pg_prepared_statements`);
      expect(rows.map((r: { statement: string }) => r.statement.startsWith(PREPARED_MARKER))).toEqual([true]);
    } finally {
      await handle.close();
      await scratch.drop();
    }
  });
});
