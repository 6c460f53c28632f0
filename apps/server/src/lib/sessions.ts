/**
 * Whether a session (a refresh-token family) is still alive (issue 42): what a session derives — an appeal token
 * issued in the portal, a live-update stream, an undo — is honoured only while it is. Read from the database, not
 * the deny list, so a Redis restart cannot bring an ended session back: a family ends by logout, refresh-token
 * reuse, a password change or reset (the other sessions), the account being disabled, or its role or practice
 * being taken away (every session of the user ends then).
 */
import { sql } from 'drizzle-orm';
import { arrayParam, type Executor } from '../db/client.ts';

export interface SessionRef {
  userId: string;
  familyId: string;
}

/**
 * The families among `families` that are still alive (a non-revoked, unexpired token of an enabled user), only
 * those of `userId` when given.
 */
export async function liveFamilies(db: Executor, families: readonly string[], userId?: string): Promise<Set<string>> {
  if (families.length === 0) return new Set();
  const result = (await db.execute(sql`select distinct r.family_id as id from refresh_tokens r
      join users u on u.id = r.user_id
    where r.family_id = any(${arrayParam(families, 'uuid')}) and r.revoked_at is null and r.expires_at > now()
      and u.disabled_at is null ${userId ? sql`and r.user_id = ${userId}` : sql``}`)) as unknown as { rows: { id: string }[] };
  return new Set(result.rows.map((r) => r.id));
}

export async function isSessionLive(db: Executor, session: SessionRef): Promise<boolean> {
  return (await liveFamilies(db, [session.familyId], session.userId)).size > 0;
}
