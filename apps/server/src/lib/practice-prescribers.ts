/** The prescribers of practices (HCP records with a prescriber role, by the contract's list): shared SQL. */
import { PRESCRIBER_ROLES } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import { arrayParam, type Executor } from '../db/client.ts';

/** The roles that prescribe (contract), as the SQL matches an HCP record's role. */
export const PRESCRIBER_ROLES_PARAM = arrayParam(PRESCRIBER_ROLES, 'text');

/** The practices' prescribers (their HCP records with a prescriber role), by name. */
async function prescriberRows(db: Executor, practiceIds: string[]) {
  if (practiceIds.length === 0) return [];
  const result = (await db.execute(sql`
    select o.id as "practiceId", o.name as "practiceName", d.id as "prescriberId", d.first_name || ' ' || d.last_name as name
    from md_offices o
    left join office_members m on m.md_office_id = o.id
    left join md_staff d on d.id = m.md_staff_id and upper(d.role) = any(${PRESCRIBER_ROLES_PARAM})
    where o.id = any(${arrayParam(practiceIds, 'uuid')})
    order by o.name, o.id, lower(d.last_name), lower(d.first_name), d.id`)) as unknown as {
    rows: { practiceId: string; practiceName: string; prescriberId: string | null; name: string | null }[];
  };
  return result.rows;
}

export interface PracticePrescribers {
  practiceId: string;
  practiceName: string;
  prescribers: { id: string; name: string }[];
}

/** Each practice (by name) with its prescribers (by name); a practice without one is listed with none. */
export async function prescribersOf(db: Executor, practiceIds: string[]): Promise<PracticePrescribers[]> {
  const practices: PracticePrescribers[] = [];
  for (const row of await prescriberRows(db, practiceIds)) {
    let practice = practices.at(-1);
    if (practice?.practiceId !== row.practiceId) {
      practice = { practiceId: row.practiceId, practiceName: row.practiceName, prescribers: [] };
      practices.push(practice);
    }
    if (row.prescriberId && row.name) practice.prescribers.push({ id: row.prescriberId, name: row.name });
  }
  return practices;
}
