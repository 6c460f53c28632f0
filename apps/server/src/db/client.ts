/**
 * One database handle for both engines: embedded PGlite (default) or PostgreSQL (DATABASE_URL).
 * The same Drizzle schema, queries and migrations run on both (docs/decisions/0001-pglite-default.md).
 */
import { createHash } from 'node:crypto';
import { access, constants, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { getTableName, is, Param, Placeholder, type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT, PgTable, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from '../lib/dependency-errors.ts';
import { preparedQuery } from './pglite-prepared.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle a transaction callback receives; repositories accept either. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

/**
 * Marks a statement to run as a named prepared statement: each connection (PostgreSQL's pooled ones, or the one
 * PGlite instance: db/pglite-prepared.ts) parses and plans it once and then only binds and executes it (the Action
 * Needed list planned in 0.7 ms of its ~14, a new FHIR Task's two statements in about 3 ms of their 5;
 * docs/performance.md). Only for statements with a bounded number of texts (the name is a hash of the text, kept
 * per connection).
 */
export const PREPARED_MARKER = '/* prepared */';
const PREPARED = sql.raw(PREPARED_MARKER);

/** `query` marked as prepared (PREPARED_MARKER) when `when` holds: e.g. only for the one-row shape of a statement. */
export function prepared(query: SQL, when = true): SQL {
  return when ? sql`${PREPARED}${query}` : query;
}

const dialect = new PgDialect();
const shapes = new Map<string, { text: string; params: unknown[] }>();
/** Shapes kept: a few per statement written this way; past the bound a shape is built each time, not kept. */
const SHAPES_KEPT = 256;

/**
 * A statement whose text depends only on `shape` (issue 46: building a new Task's two statements from Drizzle's
 * trees took about 5 % of its write). `build` writes it once per shape with `sql.placeholder(name)` for every value
 * that varies; each call only fills `values` in, by name (a column's value through the column's own mapping, as
 * Drizzle's own prepared queries do). Marked PREPARED_MARKER, it is also parsed and planned once per connection.
 */
export function shapedStatement(shape: string, build: () => SQL, values: Record<string, unknown>): SQL {
  let built = shapes.get(shape);
  if (!built) {
    const query = dialect.sqlToQuery(build());
    built = { text: query.sql, params: query.params };
    if (shapes.size < SHAPES_KEPT) shapes.set(shape, built);
  }
  const { text } = built;
  const params = built.params.map((param) => {
    const placeholder = is(param, Placeholder) ? param : is(param, Param) && is(param.value, Placeholder) ? param.value : null;
    if (!placeholder) return param;
    if (!(placeholder.name in values)) throw new Error(`shapedStatement ${shape}: no value for ${placeholder.name}`);
    const value = values[placeholder.name] ?? null;
    // As Drizzle binds a column's value: null as null, anything else through the column's mapping (a Date as text).
    return value === null || !is(param, Param) ? value : param.encoder.mapToDriverValue(value);
  });
  const statement = sql.raw(text);
  // Drizzle turns an SQL into its text and parameters with toQuery (dialect.sqlToQuery): this one has both already.
  statement.toQuery = () => ({ sql: text, params });
  return statement;
}

/** Placeholders named `prefix` + each key of `names`, as an object of that shape (for a shapedStatement's build). */
export function placeholdersOf<T extends object>(prefix: string, names: readonly (keyof T & string)[]): T {
  return Object.fromEntries(names.map((name) => [name, sql.placeholder(`${prefix}${name}`)])) as unknown as T;
}

/** `values` under the names placeholdersOf gives them. */
export function placeholderValues(prefix: string, values: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [`${prefix}${name}`, value]));
}

/**
 * A JSON value as the text a `::jsonb` parameter takes, or a placeholder for that text (a shapedStatement's build:
 * its value is given as text when the statement is filled in).
 */
export const jsonParam = (value: unknown): unknown => (is(value, Placeholder) ? value : JSON.stringify(value ?? {}));

const statementNames = new Map<string, string>();
/** The name of a marked statement's text; a marked text outside the bound stops naming rather than grow. */
export function preparedName(text: string): string | undefined {
  if (!text.startsWith(PREPARED_MARKER)) return undefined;
  let name = statementNames.get(text);
  if (!name && statementNames.size < 256) {
    name = `hcp_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A list as one array parameter (`= any(${arrayParam(ids, 'uuid')})`): one statement text however many values, so a
 * prepared statement serves every call; each element quoted as PostgreSQL's array literal wants.
 */
export function arrayParam(values: readonly string[], type: 'uuid' | 'text'): SQL {
  const literal = `{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
  return sql`${literal}::${sql.raw(type)}[]`;
}

/** The rows of a raw statement: PGlite and node-postgres both answer `{ rows }`, which drizzle types per driver. */
export async function selectRows<T = Record<string, unknown>>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** A read replica for list reads (DATABASE_READ_URL; lib/read-routing.ts); absent, everything reads the primary. */
  replica?: Database;
  /** Statements run through Drizzle so far (tests assert how many one request costs). */
  stats: { queries: number };
  /** PostgreSQL only: the pool's connections, for /metrics. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** PostgreSQL only: told each query's time in seconds once set (by /metrics). */
  onQuery?: ((seconds: number) => void) | undefined;
  /** PostgreSQL only: asked at each query's start (by tracing) for what to call at its end. */
  traceQuery?: ((query: unknown) => ((failed: boolean) => void) | undefined) | undefined;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Opens every connection the pool may hold, each touching every table once (a new PostgreSQL backend loads a
   * table's catalog entries on first use), for the warm-up of a new instance (lib/warm-up.ts). Answers how many.
   */
  warmConnections(): Promise<number>;
  /**
   * Calls `onNotify` on every NOTIFY of `channel` from any instance (PostgreSQL LISTEN on a connection of its own;
   * PGlite's in-process listen). A NOTIFY sent while the connection is down is lost: it reconnects by itself and
   * then calls `onGap`, so the caller can make up for what it may have missed. Answers the unsubscribe.
   */
  listen(channel: string, onNotify: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export class DataDirError extends Error {
  override name = 'DataDirError';
}

async function ensureWritableDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new DataDirError(`DATA_DIR '${dir}' is not writable (${code}); set DATA_DIR to a writable folder.`);
  }
}

function countingLogger() {
  const stats = { queries: 0 };
  return {
    stats,
    logger: {
      logQuery: () => {
        stats.queries += 1;
      },
    },
  };
}

type Parsers = Record<number, (value: string, typeId?: number) => unknown>;
type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Parsers };
interface Queryable {
  query(query: string, params?: unknown[], options?: QueryOptions): Promise<unknown>;
}
const asText = (value: string) => value;

/**
 * Drizzle sends the same parsers with every PGlite query (dates, timestamps, intervals and their arrays kept as
 * text), and PGlite copies its whole parser table — an entry per array type — to merge them in, each time: about
 * 0.1 ms a statement, half the cost of a trivial one (bench http-overhead). These are set on the client's own table
 * once (again whenever PGlite rebuilds an entry) and the queries go without them: the same parsing, no copy.
 */
function withClientParsers(client: PGlite): PGlite {
  const lean = <T extends object>(target: T, inTransaction = false): T =>
    new Proxy(target, {
      get(real, property) {
        if (property === 'query') {
          return (query: string, params?: unknown[], options?: QueryOptions) => {
            const queryable = real as unknown as Queryable;
            if (options?.parsers) {
              const own = (client as unknown as { parsers: Parsers }).parsers;
              for (const oid of Object.keys(options.parsers)) if (own[Number(oid)] !== asText) own[Number(oid)] = asText;
            }
            const mode = options?.rowMode ? { rowMode: options.rowMode } : undefined;
            const name = preparedName(query);
            if (name) return preparedQuery(client, name, query, params, mode, inTransaction);
            return queryable.query(query, params, options?.parsers ? mode : options);
          };
        }
        if (property === 'transaction') {
          return (fn: (tx: unknown) => Promise<unknown>) => client.transaction((tx) => fn(lean(tx, true)));
        }
        // PGlite keeps its state in private fields: its own methods must run on the real object.
        const value = Reflect.get(real, property, real);
        return typeof value === 'function' ? value.bind(real) : value;
      },
    });
  return lean(client);
}

export function wrapPglite(client: PGlite): DatabaseHandle {
  const { stats, logger } = countingLogger();
  const db = drizzlePglite(withClientParsers(client), { schema, logger }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    stats,
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    // One in-process connection, nothing to open.
    warmConnections: async () => {
      await db.execute(sql`select 1`);
      return 1;
    },
    listen: async (channel, onNotify) => {
      const unsubscribe = await client.listen(channel, (payload) => onNotify(payload));
      return async () => unsubscribe();
    },
    close: () => client.close(),
  };
}

/** How long the LISTEN connection waits before trying again after a loss, doubling up to the last. */
export const LISTEN_RETRY_MS = [250, 500, 1_000, 2_000, 5_000] as const;

/**
 * LISTEN on a connection of its own (not a pool slot). After a loss it tries again, with growing pauses, until it
 * is back or unsubscribed, and then says so through `onGap` (what was sent meanwhile is lost).
 */
function poolListener(
  options: pg.PoolConfig,
  channel: string,
  onNotify: (payload: string) => void,
  onGap: () => void = () => undefined,
) {
  let closed = false;
  let client: pg.Client | null = null;
  const open = async (): Promise<void> => {
    const next = new pg.Client(options);
    next.on('notification', (message) => onNotify(message.payload ?? ''));
    // Connect errors reject `connect()`; this handles a connection lost afterwards (never an unhandled 'error').
    next.on('error', (error) => {
      if (client !== next) return;
      process.emitWarning(`LISTEN connection lost: ${error.message}`, { code: 'HCP_DB_LISTEN_CONNECTION' });
      client = null;
      next.end().catch(() => undefined);
      void reopen();
    });
    try {
      await next.connect();
      await next.query(`listen "${channel.replaceAll('"', '')}"`);
    } catch (error) {
      next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  };
  const reopen = async (): Promise<void> => {
    for (let attempt = 0; !closed; attempt += 1) {
      const pause = LISTEN_RETRY_MS[Math.min(attempt, LISTEN_RETRY_MS.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, pause).unref());
      if (closed) return;
      try {
        await open();
        if (!closed) onGap();
        return;
      } catch {
        // Still unreachable: the next pause is longer.
      }
    }
  };
  return {
    start: open,
    stop: async () => {
      closed = true;
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * Ten connections per instance, and no wait past 5 s for one: when the database cannot be reached a request answers
 * 503 in seconds instead of hanging (decision 0051).
 */
export const POOL_OPTIONS = { max: 10, connectionTimeoutMillis: 5_000 } as const;

/** Every table of the schema, by its name in the database. */
const TABLE_NAMES = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table));

/** Session-level advisory lock held while migrating, so instances starting together migrate one at a time. */
export const MIGRATION_LOCK_ID = 7_304_210;

export function wrapPool(pool: pg.Pool, onClose?: () => Promise<void>): DatabaseHandle {
  // An idle connection that dies (server restart, failover, admin kill) is emitted on the pool; unhandled,
  // it would crash the process. The pool replaces the connection; the next query reports any real outage.
  pool.on('error', (error) => {
    process.emitWarning(`idle database connection lost: ${error.message}`, { code: 'HCP_DB_IDLE_CONNECTION' });
  });
  const { stats, logger } = countingLogger();
  const db = drizzleNodePg(pool, { schema, logger }) as unknown as Database;
  releaseBrokenTransactions(db, pool);
  const listeners = new Set<ReturnType<typeof poolListener>>();
  const handle: DatabaseHandle = {
    db,
    kind: 'postgres',
    stats,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    migrate: async () => {
      // One connection for lock, migration and unlock: a session lock belongs to its connection.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migrateNodePg(drizzleNodePg(client), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    warmConnections: async () => {
      const touch = TABLE_NAMES.map((name) => `select from "${name}" limit 0`).join('; ');
      const clients = await Promise.all(Array.from({ length: pool.options.max ?? POOL_OPTIONS.max }, () => pool.connect()));
      try {
        await Promise.all(clients.map((client) => client.query(touch)));
      } finally {
        for (const client of clients) client.release();
      }
      return clients.length;
    },
    listen: async (channel, onNotify, onGap) => {
      const listener = poolListener(pool.options, channel, onNotify, onGap);
      listeners.add(listener);
      await listener.start();
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((l) => l.stop()));
      await pool.end();
      await onClose?.();
    },
  };
  // Query time for /metrics: each pooled connection's queries are timed once someone listens, in both of pg's forms
  // (a promise; or a callback, which is how the pool itself runs `pool.query`).
  pool.on('connect', (client) => {
    // A connection that dies while checked out (inside a transaction, between its statements) emits 'error' on its
    // client, where the pool listens only while it is idle; unhandled, that event ended the process (issue 45). Here
    // it is only absorbed: the statement in flight fails on its own (the request answers 503 and says so in the log),
    // the pool drops the broken connection, and an idle one is reported by the pool's own listener above.
    client.on('error', () => undefined);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      nameIfPrepared(args);
      const observe = handle.onQuery;
      const traced = handle.traceQuery?.(args[0]);
      if (!observe && !traced) return query(...args);
      const started = performance.now();
      const done = (failed: boolean) => {
        observe?.((performance.now() - started) / 1000);
        traced?.(failed);
      };
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        return query(...args.slice(0, -1), (error: unknown, ...answer: unknown[]) => {
          done(Boolean(error));
          return callback(error, ...answer);
        });
      }
      const result = query(...args);
      if (result instanceof Promise) {
        result.then(
          () => done(false),
          () => done(true),
        );
      }
      return result;
    };
  });
  return handle;
}

/**
 * Drizzle's pool transaction takes a connection and sends `begin` before its try/finally: when the connection dies
 * at that moment (a failover, a restart, `pg_terminate_backend`), the connection is never given back, and a few such
 * moments leave the pool empty and every request waiting (issue 45: "Failed query: begin", then hangs). The same
 * transaction, with the connection always given back, and destroyed rather than reused when it broke.
 */
function releaseBrokenTransactions(db: Database, pool: pg.Pool): void {
  // The session's own parts (private in Drizzle's types) make the transaction's session, as Drizzle does.
  type Parts = ConstructorParameters<typeof NodePgSession>;
  type Session = { transaction: unknown; dialect: Parts[1]; schema: Parts[2]; options: Parts[3] };
  const session = (db as unknown as { session: Session }).session;
  session.transaction = async <T>(
    transaction: (tx: NodePgTransaction<Schema, never>) => Promise<T>,
    config?: PgTransactionConfig,
  ): Promise<T> => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const own = new NodePgSession(client, session.dialect, session.schema, session.options);
      const tx = new NodePgTransaction(session.dialect, own, session.schema as never) as NodePgTransaction<Schema, never>;
      await tx.execute(sql`begin`);
      if (config) await tx.setTransaction(config);
      try {
        const result = await transaction(tx);
        await tx.execute(sql`commit`);
        return result;
      } catch (error) {
        await tx.execute(sql`rollback`).catch((rollbackFailed: Error) => {
          broken = rollbackFailed;
        });
        throw error;
      }
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

/** A marked statement from Drizzle (`{ text, ... }` config) goes with its name (PREPARED_MARKER). */
function nameIfPrepared(args: unknown[]): void {
  const config = args[0];
  if (!config || typeof config !== 'object' || ('name' in config && (config as { name?: unknown }).name)) return;
  const text = (config as { text?: unknown }).text;
  const name = typeof text === 'string' ? preparedName(text) : undefined;
  if (name) args[0] = { ...config, name };
}

/**
 * The primary's handle, now with a replica's database for list reads; closing it closes both. The same object, not
 * a copy: the pool's query wrapper reads `onQuery`/`traceQuery` from it.
 */
export function withReplica(primary: DatabaseHandle, replica: DatabaseHandle): DatabaseHandle {
  const closePrimary = primary.close;
  primary.replica = replica.db;
  // The replica's statements are timed and traced by whatever the primary's handle is given.
  Object.defineProperty(replica, 'onQuery', { get: () => primary.onQuery });
  Object.defineProperty(replica, 'traceQuery', { get: () => primary.traceQuery });
  primary.close = async () => {
    await Promise.all([closePrimary(), replica.close()]);
  };
  return primary;
}

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  databaseReadUrl?: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const primary = wrapPool(new pg.Pool({ connectionString: options.databaseUrl, ...POOL_OPTIONS }));
    if (!options.databaseReadUrl) return primary;
    return withReplica(primary, wrapPool(new pg.Pool({ connectionString: options.databaseReadUrl, ...POOL_OPTIONS })));
  }
  const dir = path.join(options.dataDir, 'pglite');
  await ensureWritableDir(dir);
  const client = new PGlite(dir);
  await client.waitReady;
  return wrapPglite(client);
}
