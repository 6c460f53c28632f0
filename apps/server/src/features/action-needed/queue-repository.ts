/** SQL of the one queue (issue 22): every open item of the user's practices with its decision facts, one statement. */
import { ACTION_NEEDED_QUERY_TYPES, type ActionType, EVENT_TYPES, type PreparedDecision } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { auditListCteSql } from '../../lib/audit.ts';
import { alternativeMedsJsonSql } from '../../lib/prescription-sql.ts';
import { CATEGORY_SQL, faxByRuleSql, preparedJsonSql, scopedPrescriptionsSql } from './repository.ts';

export interface QueueInput {
  userId: string;
  todayIso: string;
  category?: ActionType | undefined;
  prescriber?: string | undefined;
  practice?: string | undefined;
  requestId: string;
  ip: string | null;
}

/** One row per prescription that needs the user, as the API names its fields (run-out days are added by the service). */
export interface QueueRow {
  id: string;
  patientId: string;
  patientFirstName: string;
  patientLastName: string;
  patientDob: string;
  prescriberId: string;
  prescriberName: string;
  prescriberRole: string;
  practiceId: string;
  practiceName: string;
  practicePrescribeVia: string | null;
  needsRefillAuth: boolean;
  phoneException: boolean;
  substitutionStatus: string | null;
  priorAuthStatus: string | null;
  priorAuthMethod: 'CMM_PA' | 'VERBAL_PA' | 'WEBLINK_PA' | null;
  hcpActionRequired: boolean;
  drugName: string;
  strength: string | null;
  prescribedNdc: string | null;
  dispensedNdc: string | null;
  quantity: number | null;
  daysSupply: number | null;
  refills: number;
  sig: string | null;
  isControlled: boolean;
  prescribedDate: string;
  lastFilledOn: string | null;
  refillsRemaining: number | null;
  timesRequestedBefore: number;
  priorDenials: number;
  priorAuthExpiresOn: string | null;
  alternativeMeds: string[];
  waitingSince: string;
  version: number;
  /** What staff prepared for the prescriber's signature (issue 23), or null. */
  prepared: PreparedDecision | null;
  /** The "always send by fax" rule routing it, by name (issue 23), or null. */
  faxByRule: string | null;
}

/**
 * The queue's rows in one statement that also writes the audit row of this read, naming the patients it shows (a
 * data-modifying CTE), so a request costs this and the sign-in guard's deny-list lookup. Earlier answers and denials are counted from
 * the prescription's own timeline (the events are the record of what was decided).
 */
export async function actionQueueRows(db: Executor, input: QueueInput): Promise<QueueRow[]> {
  const condition = CATEGORY_SQL[ACTION_NEEDED_QUERY_TYPES[input.category ?? 'all']];
  const result = (await db.execute(sql`
    with p as (${scopedPrescriptionsSql(input.userId, input.todayIso, input, 'semi-join')}),
    queue as (
    select p.id, pt.id as "patientId", pt.first_name as "patientFirstName", pt.last_name as "patientLastName",
      to_char(pt.dob, 'YYYY-MM-DD') as "patientDob",
      d.id as "prescriberId", d.first_name || ' ' || d.last_name as "prescriberName", d.role as "prescriberRole",
      o.id as "practiceId", o.name as "practiceName", o.prescribe_via as "practicePrescribeVia", p.version,
      p.refill_due as "needsRefillAuth", p.phone_exception as "phoneException",
      p.substitution_status as "substitutionStatus", p.prior_auth_status as "priorAuthStatus",
      p.prior_auth_method as "priorAuthMethod", p.hcp_action_required as "hcpActionRequired",
      p.drug_name as "drugName", p.strength, p.prescribed_ndc as "prescribedNdc", p.dispensed_ndc as "dispensedNdc",
      p.quantity, p.days_supply as "daysSupply", p.refills, p.sig,
      exists (select 1 from drug_products dp where dp.ndc in (p.prescribed_ndc, p.dispensed_ndc) and dp.is_controlled)
        as "isControlled",
      to_char(p.prescribed_at, 'YYYY-MM-DD HH24:MI:SS"Z"') as "prescribedDate",
      to_char(p.last_filled_on, 'YYYY-MM-DD') as "lastFilledOn", p.refills_remaining as "refillsRemaining",
      coalesce(ev.answered, 0) as "timesRequestedBefore", coalesce(ev.denied, 0) as "priorDenials",
      to_char(p.prior_auth_expires_on, 'YYYY-MM-DD') as "priorAuthExpiresOn",
      ${alternativeMedsJsonSql('p')} as "alternativeMeds",
      to_char(coalesce(p.request_received_at, p.last_processed_at, p.prescribed_at), 'YYYY-MM-DD HH24:MI:SS"Z"')
        as "waitingSince", ${preparedJsonSql('p')} as prepared, ${faxByRuleSql('p')} as "faxByRule"
    from p
    join patients pt on pt.id = p.patient_id
    join md_staff d on d.id = p.prescriber_id
    join md_offices o on o.id = p.md_office_id
    left join lateral (
      select count(*) filter (where e.type in (${EVENT_TYPES.refillAuthorizedFax}, ${EVENT_TYPES.refillAuthorizedErx},
               ${EVENT_TYPES.refillDenied}))::int as answered,
             count(*) filter (where e.type = ${EVENT_TYPES.refillDenied})::int as denied
      from prescription_events e where e.prescription_id = p.id and e.undone_at is null
    ) ev on true
    where ${condition}
    ),
    ${auditListCteSql(
      {
        actorUserId: input.userId,
        action: 'action-queue.read',
        entityType: 'action-needed',
        requestId: input.requestId,
        ip: input.ip,
        details: { category: input.category ?? null, prescriber: input.prescriber ?? null, practice: input.practice ?? null },
      },
      sql`select "patientId" as patient_id from queue`,
    )}
    select * from queue
  `)) as unknown as { rows: QueueRow[] };
  return result.rows;
}
