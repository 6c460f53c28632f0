/**
 * Revoked access tokens and token families, until they expire. The database is the record (it survives anything
 * Redis loses); with REDIS_URL, Redis answers the check on every signed-in request in front of it (decision 0052):
 *
 * - a revocation is written to the database first, then to Redis;
 * - Redis holds a marker beside the revocations, set once they were all copied in: a Redis that restarted empty,
 *   was flushed or is new has no marker, and the check then asks the database and copies the revocations in again
 *   (issue 45: a Redis restart revived every logged-out token);
 * - a Redis that is down, refuses or does not answer within its command time-out is passed by: the database answers.
 *   A revoked token is never accepted for want of Redis; a check costs a database query while Redis is away.
 */
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { arrayParam, type Database, PREPARED_MARKER } from '../db/client.ts';
import { revokedTokens } from '../db/schema.ts';

export type RevokedKind = 'jti' | 'family';

export interface DenyList {
  revoke(id: string, kind: RevokedKind, expiresAt: Date): Promise<void>;
  /** True when any of the ids is revoked and not yet expired. */
  isRevoked(ids: string[]): Promise<boolean>;
}

export function databaseDenyList(db: Database): DenyList {
  return {
    async revoke(id, kind, expiresAt) {
      await db
        .insert(revokedTokens)
        .values({ id, kind, expiresAt })
        .onConflictDoUpdate({ target: revokedTokens.id, set: { expiresAt } });
    },
    async isRevoked(ids) {
      // On every signed-in request: one text whatever the ids, prepared once per connection (PREPARED_MARKER).
      const result = (await db.execute(sql`${sql.raw(PREPARED_MARKER)} select 1 from revoked_tokens
        where id = any(${arrayParam(ids, 'text')}) and expires_at > now()
        limit 1`)) as unknown as { rows: unknown[] };
      return result.rows.length > 0;
    },
  };
}

export interface CachedDenyList extends DenyList {
  /** How checks were answered so far (tests and /metrics read it). */
  readonly answeredBy: { redis: number; database: number; reloads: number };
}

/** The database's revocations, with Redis in front as a cache that knows when it lost them. */
export function redisDenyList(
  redis: Redis,
  db: Database,
  options: { prefix?: string; warn?: (message: string) => void } = {},
): CachedDenyList {
  const prefix = options.prefix ?? 'hcp:revoked:';
  const marker = `${prefix}__loaded`;
  const record = databaseDenyList(db);
  const answeredBy = { redis: 0, database: 0, reloads: 0 };
  const ttlOf = (expiresAt: Date) => Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
  let reloading: Promise<void> | null = null;

  /** Copies every live revocation into Redis, then sets the marker (one reload at a time per instance). */
  const reload = () => {
    reloading ??= (async () => {
      const live = (await db.execute(
        sql`select id, expires_at as "expiresAt" from revoked_tokens where expires_at > now()`,
      )) as unknown as { rows: { id: string; expiresAt: Date | string }[] };
      const pipeline = redis.pipeline();
      for (const row of live.rows) pipeline.set(`${prefix}${row.id}`, '1', 'EX', ttlOf(new Date(row.expiresAt)));
      pipeline.set(marker, new Date().toISOString());
      await pipeline.exec();
      answeredBy.reloads += 1;
    })().finally(() => {
      reloading = null;
    });
    return reloading;
  };
  const fromDatabase = async (ids: string[]) => {
    answeredBy.database += 1;
    return record.isRevoked(ids);
  };

  return {
    answeredBy,
    async revoke(id, kind, expiresAt) {
      await record.revoke(id, kind, expiresAt);
      // Best effort: a Redis that missed this write is behind the database, which every check falls back to while
      // Redis is away; once it is back without the marker it is reloaded.
      await redis.set(`${prefix}${id}`, '1', 'EX', ttlOf(expiresAt)).catch((error: Error) => {
        options.warn?.(`revocation not copied to Redis: ${error.message}`);
        return redis.del(marker).catch(() => undefined);
      });
    },
    async isRevoked(ids) {
      let values: (string | null)[];
      try {
        values = await redis.mget([marker, ...ids.map((id) => `${prefix}${id}`)]);
      } catch (error) {
        options.warn?.(`revocation check asked the database: ${(error as Error).message}`);
        return fromDatabase(ids);
      }
      if (values[0] === null) {
        // Redis lost what it held (a restart without persistence, a flush, a new Redis): the database answers, and
        // Redis is filled again for the next checks.
        await reload().catch((error: Error) => options.warn?.(`revocations not reloaded into Redis: ${error.message}`));
        return fromDatabase(ids);
      }
      answeredBy.redis += 1;
      return values.slice(1).some((v) => v !== null);
    },
  };
}
