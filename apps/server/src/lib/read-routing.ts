/**
 * List reads on a read replica (DATABASE_READ_URL, docs/decisions/0035-read-replica.md). The heavy list statements
 * (Action Needed, Rx list, patient search, New Comments) may run on the replica; everything else — writes, a write's
 * answer, single-record reads, sign-in — stays on the primary.
 *
 * - **Read your own writes.** A user who has just written reads lists from the primary for STICKY_MS: a replica a
 *   moment behind must not show them the item they just cleared. The mark is kept in Redis when REDIS_URL is set
 *   (so the next request may land on any instance), else in this instance's memory.
 * - **Audit stays whole.** A list's audit row is a data-modifying CTE of its statement; a replica is read-only, so
 *   there the statement runs without it and the row is written on the primary at the same time. Both must succeed.
 * - **A failing replica costs a retry, not an error**: the statement runs again on the primary.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Database, Executor } from '../db/client.ts';
import { type AuditEntry, auditCteSql, writeAudit } from './audit.ts';

export const STICKY_MS = 10_000;
const KEY = 'hcp:wrote:';

/** The statement's audit CTE when it runs where it may write; a stand-in of the same name where it may not. */
const NO_AUDIT_CTE = sql`audit as (select null::bigint as id)`;

export interface ReadRouting {
  readonly replica: boolean;
  /** Marks that this user just wrote: their list reads go to the primary for a while. */
  noteWrite(userId: string): Promise<void>;
  /**
   * Runs an audited list statement, `build(db, auditCte)` (the statement must start `with ${auditCte}, ...`), where
   * it should run for this user, with its audit row written exactly once on the primary.
   */
  auditedList<T>(userId: string, entry: AuditEntry, build: (db: Executor, auditCte: SQL) => Promise<T>): Promise<T>;
}

export function createReadRouting(deps: {
  primary: Database;
  replica: Database | null;
  redis: Redis | null;
  now?: () => number;
  onReplicaError?: (error: unknown) => void;
}): ReadRouting {
  const { primary, replica } = deps;
  const now = deps.now ?? Date.now;
  const wroteUntil = new Map<string, number>();

  async function recentlyWrote(userId: string): Promise<boolean> {
    const until = wroteUntil.get(userId);
    if (until !== undefined) {
      if (until > now()) return true;
      wroteUntil.delete(userId);
    }
    // Without Redis's answer (down, or past its time-out) the primary answers: never a list older than one's write.
    return deps.redis ? (await deps.redis.exists(`${KEY}${userId}`).catch(() => 1)) === 1 : false;
  }

  return {
    replica: replica !== null,

    async noteWrite(userId) {
      if (!replica) return;
      wroteUntil.set(userId, now() + STICKY_MS);
      // Best effort (decision 0052): while Redis is away every instance reads such users from the primary anyway.
      await deps.redis?.set(`${KEY}${userId}`, '1', 'PX', STICKY_MS).catch(() => undefined);
    },

    async auditedList(userId, entry, build) {
      if (!replica || (await recentlyWrote(userId))) return build(primary, auditCteSql(entry));
      const [result] = await Promise.all([
        build(replica, NO_AUDIT_CTE).catch((error: unknown) => {
          deps.onReplicaError?.(error);
          return build(primary, NO_AUDIT_CTE);
        }),
        writeAudit(primary, entry),
      ]);
      return result;
    },
  };
}
