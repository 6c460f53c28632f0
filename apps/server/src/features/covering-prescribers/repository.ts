/** SQL of covering prescribers (issue 23, decision 0041): policies, coverages as the screen reads them, their writes. */
import type { Coverage, CoverageInput, SigningPolicy } from '@hcp/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { arrayParam, type Executor } from '../../db/client.ts';
import { coverages, mdOffices } from '../../db/schema.ts';

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

export async function policiesOf(db: Executor, practiceIds: string[]): Promise<Map<string, SigningPolicy>> {
  if (practiceIds.length === 0) return new Map();
  const result = (await db.execute(sql`select id, signing_policy as policy from md_offices
    where id = any(${arrayParam(practiceIds, 'uuid')})`)) as unknown as { rows: { id: string; policy: SigningPolicy }[] };
  return new Map(result.rows.map((r) => [r.id, r.policy]));
}

/** The coverages of the practices not ended and not over (one, with `id`), soonest first, with the names read. */
export async function coverageRecords(
  db: Executor,
  filter: { practiceIds: string[]; id?: string },
): Promise<(Coverage & { practiceId: string })[]> {
  if (filter.practiceIds.length === 0) return [];
  const result = (await db.execute(sql`
    select c.id, c.md_office_id as "practiceId",
      json_build_object('id', a.id, 'name', a.first_name || ' ' || a.last_name) as "coveringPrescriber",
      json_build_object('id', b.id, 'name', b.first_name || ' ' || b.last_name) as "coveredPrescriber",
      ${iso('c.starts_at')} as "startsAt", ${iso('c.ends_at')} as "endsAt",
      u.display_name as "createdByName", ${iso('c.created_at')} as "createdAt"
    from coverages c
    join md_staff a on a.id = c.covering_staff_id
    join md_staff b on b.id = c.covered_staff_id
    left join users u on u.id = c.created_by
    where c.md_office_id = any(${arrayParam(filter.practiceIds, 'uuid')})
      and c.ended_at is null and c.ends_at > statement_timestamp()
      ${filter.id ? sql`and c.id = ${filter.id}::uuid` : sql``}
    order by c.starts_at, c.id`)) as unknown as { rows: (Coverage & { practiceId: string })[] };
  return result.rows;
}

export async function setPolicy(db: Executor, practiceId: string, policy: SigningPolicy): Promise<void> {
  await db.update(mdOffices).set({ signingPolicy: policy, updatedAt: new Date() }).where(eq(mdOffices.id, practiceId));
}

export async function insertCoverage(db: Executor, input: CoverageInput, createdBy: string): Promise<string> {
  const [row] = await db
    .insert(coverages)
    .values({
      mdOfficeId: input.practiceId,
      coveringStaffId: input.coveringPrescriberId,
      coveredStaffId: input.coveredPrescriberId,
      startsAt: new Date(input.startsAt),
      endsAt: new Date(input.endsAt),
      createdBy,
    })
    .returning({ id: coverages.id });
  if (!row) throw new Error('a coverage could not be saved');
  return row.id;
}

/** A coverage not ended yet, of one of the practices, locked for the transaction (null: not the user's to see). */
export async function lockCoverage(db: Executor, id: string, practiceIds: string[]) {
  if (practiceIds.length === 0) return null;
  const [row] = await db
    .select({ id: coverages.id, practiceId: coverages.mdOfficeId, coveredId: coverages.coveredStaffId })
    .from(coverages)
    .where(
      and(
        eq(coverages.id, id),
        isNull(coverages.endedAt),
        sql`${coverages.mdOfficeId} = any(${arrayParam(practiceIds, 'uuid')})`,
      ),
    )
    .for('update');
  return row ?? null;
}

export async function endCoverage(db: Executor, id: string, endedBy: string): Promise<void> {
  await db.update(coverages).set({ endedAt: new Date(), endedBy }).where(eq(coverages.id, id));
}
