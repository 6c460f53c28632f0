/**
 * Revoked access tokens and token families, until they expire. In the database by default; in Redis when
 * REDIS_URL is set, so that every instance sees a logout at once without a database round trip.
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

export function redisDenyList(redis: Redis, prefix = 'hcp:revoked:'): DenyList {
  return {
    async revoke(id, _kind, expiresAt) {
      const ttl = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
      await redis.set(`${prefix}${id}`, '1', 'EX', ttl);
    },
    async isRevoked(ids) {
      const values = await redis.mget(ids.map((id) => `${prefix}${id}`));
      return values.some((v) => v !== null);
    },
  };
}
