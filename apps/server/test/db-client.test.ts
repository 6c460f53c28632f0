/**
 * The database handles (db/client.ts): Drizzle's per-query parsers set once on PGlite, same results; marked
 * statements prepared once per PostgreSQL connection and once per PGlite instance (db/pglite-prepared.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { boolean, jsonb, PgDialect, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  arrayParam,
  type DatabaseHandle,
  type Executor,
  PREPARED_MARKER,
  prepared,
  preparedName,
  selectRows,
  shapedStatement,
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

const sqlText = (query: SQL) => new PgDialect().sqlToQuery(query).sql;

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

describe('prepared statements', () => {
  it('names a marked statement by its text and leaves the others unnamed', () => {
    const text = `${PREPARED_MARKER} select 1`;
    expect(preparedName(text)).toMatch(/^hcp_[0-9a-f]{20}$/);
    expect(preparedName(text)).toBe(preparedName(text));
    expect(preparedName(`${PREPARED_MARKER} select 2`)).not.toBe(preparedName(text));
    expect(preparedName('select 1')).toBeUndefined();
  });

  it('plans it once on PGlite too, with the same rows as an unmarked run, in and out of a transaction', async () => {
    const probe = (n: number | null) => sql`select ${n}::int as n, ${{ a: [1, 'x'] }}::jsonb as doc, ${'2026-11-20'}::date as day,
      ${new Date('2026-11-20T15:00:00Z')}::timestamptz as at, ${true}::boolean as yes, 1.50::numeric as price,
      ${'O\'Brien "quoted" é'}::text as words`;
    const rowsOf = async (run: Promise<unknown>) => ((await run) as { rows: Record<string, unknown>[] }).rows;
    const plain = await rowsOf(database.db.execute(probe(7)));
    const marked = [
      await rowsOf(database.db.execute(prepared(probe(7)))),
      await rowsOf(database.db.transaction((tx) => tx.execute(prepared(probe(7))))),
    ];
    expect(marked).toEqual([plain, plain]);
    expect(plain[0]).toMatchObject({ n: 7, doc: { a: [1, 'x'] }, day: '2026-11-20', yes: true, price: '1.50' });
    expect((await rowsOf(database.db.execute(prepared(probe(null)))))[0]?.n).toBeNull();
    const { rows } = await client.query<{ name: string }>(`select name from pg_prepared_statements`);
    expect(rows.map((r) => r.name)).toEqual([preparedName(`${PREPARED_MARKER}${sqlText(probe(7))}`)]);
  });

  it('answers a failed marked statement with its error and leaves PGlite ready, the transaction undone', async () => {
    await database.db.execute(sql`create table if not exists prepared_probe (id int primary key)`);
    const insert = (id: number) => prepared(sql`insert into prepared_probe (id) values (${id}) returning id`);
    await database.db.execute(insert(1));
    await expect(database.db.execute(insert(1))).rejects.toMatchObject({ cause: { code: '23505' } });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(insert(2));
        await tx.execute(insert(1));
      }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    await database.db.execute(insert(3));
    const { rows } = await client.query<{ id: number }>(`select id from prepared_probe order by id`);
    expect(rows.map((r) => r.id)).toEqual([1, 3]);
  });

  it('keeps a marked write outside a transaction on disk, as an unmarked one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hcp-prepared-'));
    try {
      const first = wrapPglite(new PGlite(dir));
      await first.db.execute(sql`create table kept (n int)`);
      await first.db.execute(prepared(sql`insert into kept (n) values (${42})`));
      await first.close();
      const again = new PGlite(dir);
      expect((await again.query<{ n: number }>(`select n from kept`)).rows).toEqual([{ n: 42 }]);
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.runIf(databaseUrl)('plans it once per PostgreSQL connection, in and out of a transaction', async () => {
    const scratch = await createScratchDatabase(databaseUrl, 'hcp_prepared');
    const pool = new pg.Pool({ connectionString: scratch.url, max: 1 });
    const handle = wrapPool(pool);
    try {
      const list = (n: number) => sql`select json_build_object('n', ${n}::int, 'at', ${'2026-11-27'}::date)::text as body`;
      const body = async (db: Executor, query: SQL) => (await selectRows<{ body: string }>(db, query))[0]?.body ?? '{}';
      const bodies = [
        await body(handle.db, prepared(list(1))),
        await body(handle.db, prepared(list(2))),
        await handle.db.transaction((tx) => body(tx, prepared(list(3)))),
        await body(handle.db, prepared(list(4), false)),
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

describe('shapedStatement: one text per shape, values filled in by name (issue 46)', () => {
  const probe = pgTable('shaped_probe', {
    id: text('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }),
    doc: jsonb('doc'),
    yes: boolean('yes'),
  });
  // A builder of Drizzle's own, for the statement's text only (the rows go through the handle under test).
  const builder = drizzle(new PGlite());
  const insertOf = (values: typeof probe.$inferInsert) =>
    prepared(sql`with t as (${builder.insert(probe).values(values).getSQL()}) select ${sql.placeholder('echo')}::text as echo`);
  const placeholders = {
    id: sql.placeholder('id'),
    at: sql.placeholder('at'),
    doc: sql.placeholder('doc'),
    yes: sql.placeholder('yes'),
  } as never;
  let builds = 0;
  const shaped = (values: Record<string, unknown>) =>
    shapedStatement(
      'probe-insert',
      () => {
        builds += 1;
        return insertOf(placeholders);
      },
      values,
    );

  it('builds the text once and binds each call’s values through the columns’ own mapping, null as null', async () => {
    await database.db.execute(
      sql`create table if not exists shaped_probe (id text primary key, at timestamptz, doc jsonb, yes boolean)`,
    );
    const at = new Date('2026-12-03T13:00:00.123Z');
    const first = (await database.db.execute(
      shaped({ id: 'a', at, doc: { x: [1, 'é'] }, yes: true, echo: 'one' }),
    )) as unknown as {
      rows: { echo: string }[];
    };
    await database.db.execute(shaped({ id: 'b', at: null, doc: null, yes: null, echo: 'two' }));
    await database.db.transaction((tx) => tx.execute(shaped({ id: 'c', at, doc: {}, yes: false, echo: 'three' })));
    expect(builds).toBe(1);
    expect(first.rows[0]?.echo).toBe('one');
    const { rows } = await client.query<Record<string, unknown>>(
      `select id, to_char(at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as at, doc, yes from shaped_probe order by id`,
    );
    expect(rows).toEqual([
      { id: 'a', at: '2026-12-03T13:00:00.123', doc: { x: [1, 'é'] }, yes: true },
      { id: 'b', at: null, doc: null, yes: null },
      { id: 'c', at: '2026-12-03T13:00:00.123', doc: {}, yes: false },
    ]);
    // The same text as the statement built from the same values the ordinary way: one prepared statement for both.
    expect(sqlText(shaped({ id: 'd', at, doc: {}, yes: true, echo: '' }))).toBe(
      sqlText(insertOf({ id: 'd', at, doc: {}, yes: true })),
    );
  });

  it('refuses a call that leaves a value out, before anything is sent', () => {
    expect(() => shaped({ id: 'e', at: null, doc: null, yes: null })).toThrow(/no value for echo/);
  });
});
