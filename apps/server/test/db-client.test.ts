/** The embedded database's handle (db/client.ts): Drizzle's per-query parsers set once on PGlite, same results. */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, wrapPglite } from '../src/db/client.ts';

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
