/**
 * Who signs for whom (issue 23, decision 0041): the facts the contract's `maySignFor` reads for a user, and the
 * check every signature decision makes under its lock. Practices keep the default ('anyPrescriber') unless they
 * chose to keep signing to each prescriber and whoever covers for them.
 */
import {
  COVERAGE_MESSAGES,
  maySignFor,
  needsPrescriberSignature,
  type PrescriptionAction,
  type SigningFacts,
} from '@hcp/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { AppError } from './errors.ts';
import { patientScopeSql } from './office-scope.ts';

/** The user's HCP id and signing facts, read together (one statement; no coverage rows unless a practice restricts). */
export async function signingOf(db: Executor, userId: string): Promise<{ ownPrescriberId: string | null; facts: SigningFacts }> {
  const result = (await db.execute(sql`
    with restricting as (
      select o.id from md_offices o
      where o.id in (${patientScopeSql(userId)}) and o.signing_policy = 'ownOrCovering'
    )
    select (select md_staff_id from users where id = ${userId}) as "ownPrescriberId",
      coalesce((select json_agg(id) from restricting), '[]'::json) as "practiceIds",
      coalesce((select json_agg(json_build_object('practiceId', c.md_office_id, 'prescriberId', c.covered_staff_id,
          'startsAt', to_char(c.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'endsAt', to_char(c.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by c.starts_at)
        from coverages c join users u on u.id = ${userId} and u.md_staff_id = c.covering_staff_id
        where c.ended_at is null and c.ends_at > statement_timestamp() and c.md_office_id in (select id from restricting)),
        '[]'::json) as "covers"`)) as unknown as {
    rows: { ownPrescriberId: string | null; practiceIds: string[]; covers: SigningFacts['covers'] }[];
  };
  const row = result.rows[0];
  return {
    ownPrescriberId: row?.ownPrescriberId ?? null,
    facts: { ownOrCoveringPracticeIds: row?.practiceIds ?? [], covers: row?.covers ?? [] },
  };
}

/**
 * Refuses (403) a signature decision on a request the practice's policy keeps to another prescriber and whoever
 * covers for them. Call it after the scope check (outside the user's reach is still 404) and the role check.
 */
export async function assertMaySign(
  db: Executor,
  userId: string,
  action: PrescriptionAction,
  items: readonly { mdOfficeId: string; prescriberId: string }[],
): Promise<void> {
  if (!needsPrescriberSignature(action) || items.length === 0) return;
  const { ownPrescriberId, facts } = await signingOf(db, userId);
  const now = new Date();
  for (const item of items) {
    if (!maySignFor(facts, ownPrescriberId, { practiceId: item.mdOfficeId, prescriberId: item.prescriberId }, now)) {
      throw new AppError('FORBIDDEN', COVERAGE_MESSAGES.notYours);
    }
  }
}
