/**
 * List reads on a read replica (DATABASE_READ_URL, docs/decisions/0035-read-replica.md). The heavy list statements
 * (Action Needed, Rx list, patient search, New Comments) may run on the replica; everything else — writes, a write's
 * answer, single-record reads, sign-in — stays on the primary.
 *
 * - **Read your own writes.** A user who has just written reads lists from the primary for STICKY_MS: a replica a
 *   moment behind must not show them the item they just cleared. The mark is kept in Redis when REDIS_URL is set
 *   (so the next request may land on any instance), else in this instance's memory.
 * - **Audit stays whole.** A list's audit row is a data-modifying CTE of its statement, naming the patients the
 *   answer shows (issue 49); a replica is read-only, so there the statement only works out those patients and the
 *   row is written on the primary once the answer is read. Both must succeed.
 * - **A failing replica costs a retry, not an error**: the statement runs again on the primary.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { type Database, type Executor, prepared, selectRows } from '../db/client.ts';
import { type AuditEntry, auditListCteSql, shownPatientsSql, writeAudit } from './audit.ts';

export const STICKY_MS = 10_000;
const KEY = 'hcp:wrote:';

/**
 * A list statement's audit CTE, given the select of the patients its answer shows (one column, `patient_id`, over
 * the statement's earlier CTEs): the audit row where the statement may write; where it may not (a replica), a
 * stand-in of the same name that only works out those patients.
 */
export type ListAudit = (shown: SQL) => SQL;

/** What a list statement returns: the answer's JSON text and the patients it shows (JSON array of ids). */
export interface ListAnswer {
  body: string;
  shown: string | null;
}

/** The final select's column that hands the shown patients back (see ListAudit). */
export const SHOWN_COLUMN = sql`(select shown from audit)::text as shown`;

/**
 * Runs a list statement that selects `body` and SHOWN_COLUMN; `fallback` when it returns no row. `prepared` only for
 * a statement with a bounded number of texts (PREPARED_MARKER in db/client.ts): a search whose text grows with the
 * words typed is not one.
 */
export async function selectListAnswer(
  db: Executor,
  query: SQL,
  fallback: string,
  options: { prepared?: boolean } = {},
): Promise<ListAnswer> {
  const [row] = await selectRows<ListAnswer>(db, prepared(query, options.prepared ?? false));
  return row ?? { body: fallback, shown: null };
}

const onlyShown: ListAudit = (shown) => sql`audit as (select ${shownPatientsSql(shown)} as shown)`;

export interface ReadRouting {
  readonly replica: boolean;
  /** Marks that this user just wrote: their list reads go to the primary for a while. */
  noteWrite(userId: string): Promise<void>;
  /**
   * Runs an audited list statement, `build(db, audit)` (see ListAudit), where it should run for this user, with its
   * audit row, naming the patients shown, written exactly once on the primary. Resolves to the answer's JSON text.
   */
  auditedList(userId: string, entry: AuditEntry, build: (db: Executor, audit: ListAudit) => Promise<ListAnswer>): Promise<string>;
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
      if (!replica || (await recentlyWrote(userId))) {
        return (await build(primary, (shown) => auditListCteSql(entry, shown))).body;
      }
      const answer = await build(replica, onlyShown).catch((error: unknown) => {
        deps.onReplicaError?.(error);
        return build(primary, onlyShown);
      });
      const patientIds: unknown = JSON.parse(answer.shown ?? '[]');
      await writeAudit(primary, { ...entry, details: { ...entry.details, patientIds } });
      return answer.body;
    },
  };
}
