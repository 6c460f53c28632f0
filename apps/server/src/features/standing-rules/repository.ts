/** SQL of standing rules: the rules of a set of practices as the screen reads them, and their writes. */
import type { StandingRule, StandingRuleInput } from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { arrayParam, type Executor } from '../../db/client.ts';
import { standingRules } from '../../db/schema.ts';
import { PRESCRIBER_ROLES_PARAM } from '../../lib/practice-prescribers.ts';

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The rules (one, or every rule of the practices) with the names a person reads, newest first. */
export async function ruleRecords(
  db: Executor,
  filter: { practiceIds: string[] } | { id: string; practiceIds: string[] },
): Promise<StandingRule[]> {
  if (filter.practiceIds.length === 0) return [];
  const result = (await db.execute(sql`
    select r.id, r.name, r.md_office_id as "practiceId", o.name as "practiceName", r.action,
      r.prescriber_id as "prescriberId",
      case when d.id is null then null else d.first_name || ' ' || d.last_name end as "prescriberName",
      r.patient_id as "patientId",
      case when pt.id is null then null else pt.last_name || ', ' || pt.first_name end as "patientName",
      r.drug_name as "drugName", r.ndc, r.note, r.enabled, r.answered_count as "answeredCount",
      u.display_name as "createdByName", ${iso('r.created_at')} as "createdAt", ${iso('r.updated_at')} as "updatedAt", r.version
    from standing_rules r
    join md_offices o on o.id = r.md_office_id
    left join md_staff d on d.id = r.prescriber_id
    left join patients pt on pt.id = r.patient_id
    left join users u on u.id = r.created_by
    where r.md_office_id = any(${arrayParam(filter.practiceIds, 'uuid')})
      ${'id' in filter ? sql`and r.id = ${filter.id}::uuid` : sql``}
    order by r.created_at desc, r.id`)) as unknown as { rows: StandingRule[] };
  return result.rows;
}

/** Whether the prescriber is one of the practice's and the patient the practice's own (a rule names only those). */
export async function belongsToPractice(
  db: Executor,
  practiceId: string,
  input: Pick<StandingRuleInput, 'prescriberId' | 'patientId'>,
) {
  const result = (await db.execute(sql`select
      ${
        input.prescriberId
          ? sql`exists (select 1 from office_members m join md_staff d on d.id = m.md_staff_id
        where m.md_office_id = ${practiceId}::uuid and d.id = ${input.prescriberId}::uuid
          and upper(d.role) = any(${PRESCRIBER_ROLES_PARAM}))`
          : sql`true`
      } as prescriber,
      ${input.patientId ? sql`exists (select 1 from patients p where p.id = ${input.patientId}::uuid and p.md_office_id = ${practiceId}::uuid)` : sql`true`} as patient`)) as unknown as {
    rows: { prescriber: boolean; patient: boolean }[];
  };
  return result.rows[0] ?? { prescriber: false, patient: false };
}

const columnsOf = (input: StandingRuleInput) => ({
  name: input.name,
  action: input.action,
  prescriberId: input.prescriberId,
  patientId: input.patientId,
  drugName: input.drugName,
  ndc: input.ndc,
  note: input.note,
  enabled: input.enabled,
});

export async function insertRule(db: Executor, input: StandingRuleInput, createdBy: string): Promise<string> {
  const [row] = await db
    .insert(standingRules)
    .values({ ...columnsOf(input), mdOfficeId: input.practiceId, createdBy })
    .returning({ id: standingRules.id });
  if (!row) throw new Error('standing rule insert returned no row');
  return row.id;
}

/** The rule's practice, patient and version (locked unless said) when it is in one of the practices; else null. */
export async function lockRule(db: Executor, id: string, practiceIds: string[], options = { lock: true }) {
  if (practiceIds.length === 0) return null;
  const result = (await db.execute(sql`select md_office_id as "practiceId", patient_id as "patientId", version,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt"
    from standing_rules where id = ${id}::uuid and md_office_id = any(${arrayParam(practiceIds, 'uuid')})
    ${options.lock ? sql`for update` : sql``}`)) as unknown as {
    rows: { practiceId: string; patientId: string | null; version: number; createdAt: string }[];
  };
  return result.rows[0] ?? null;
}

export async function updateRule(db: Executor, id: string, input: StandingRuleInput) {
  await db
    .update(standingRules)
    .set({ ...columnsOf(input), version: sql`${standingRules.version} + 1`, updatedAt: new Date() })
    .where(eq(standingRules.id, id));
}

export async function deleteRule(db: Executor, id: string, practiceId: string) {
  await db.delete(standingRules).where(and(eq(standingRules.id, id), eq(standingRules.mdOfficeId, practiceId)));
}
