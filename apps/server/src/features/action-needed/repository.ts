/** SQL of Action Needed: the nested list (one statement) and the rows the actions lock and change. */
import { ACTION_NEEDED_QUERY_TYPES, type ActionNeededQueryType } from '@hcp/contract';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  drugAlternatives,
  mdOffices,
  mdStaff,
  patients,
  preparedDecisions,
  prescriptionEvents,
  prescriptions,
  users,
} from '../../db/schema.ts';
import { patientScopeSql } from '../../lib/office-scope.ts';
import {
  alternativeMedsJsonSql,
  altMedPendingSql,
  needsActionSql,
  priorAuthNeedsActionSql,
  refillDueSql,
} from '../../lib/prescription-sql.ts';
import { type ListAnswer, type ListAudit, SHOWN_COLUMN, selectListAnswer } from '../../lib/read-routing.ts';

/** Each category as SQL over the CTE row `p`, whose `refill_due` column is already worked out. */
const refillDue = sql.raw('p.refill_due');
export const CATEGORY_SQL: Record<ActionNeededQueryType, SQL> = {
  [ACTION_NEEDED_QUERY_TYPES.refillAuth]: refillDue,
  [ACTION_NEEDED_QUERY_TYPES.priorAuth]: priorAuthNeedsActionSql('p'),
  [ACTION_NEEDED_QUERY_TYPES.phoneException]: sql`p.phone_exception`,
  [ACTION_NEEDED_QUERY_TYPES.altMed]: altMedPendingSql('p'),
  [ACTION_NEEDED_QUERY_TYPES.appeals]: sql`p.hcp_action_required`,
  [ACTION_NEEDED_QUERY_TYPES.all]: needsActionSql('p', refillDue),
};

/**
 * What staff prepared for the prescriber's signature (issue 23), or JSON null. Only while the request is as it was
 * when prepared: once the pharmacy (or a rule, or anyone's decision) changed it, the preparation is stale and no
 * longer offered — the item is prepared again.
 */
export const preparedJsonSql = (alias: string) =>
  sql.raw(`(select json_build_object('decision', pd.decision, 'preparedByName', pu.display_name,
    'preparedAt', to_char(pd.prepared_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    from prepared_decisions pd join users pu on pu.id = pd.prepared_by
    where pd.prescription_id = ${alias}.id and pd.prescription_version = ${alias}.version)`);

/** The name of the "always send by fax" rule routing the request (issue 23), or null: one key lookup when set. */
export const faxByRuleSql = (alias: string) => sql.raw(`(select r.name from standing_rules r where r.id = ${alias}.fax_rule_id)`);

export interface ListInput {
  userId: string;
  actionType: ActionNeededQueryType;
  filterBy: string | undefined;
  todayIso: string;
}

/**
 * The whole nested answer `{"doctors":[…]}` as JSON text, built by PostgreSQL in one statement that also
 * writes the audit row of this read (`audit`, a data-modifying CTE where the statement runs on the primary; see
 * lib/read-routing.ts). Doctors and patients by name; a patient's prescriptions oldest first (longest waiting on top).
 */
export async function actionNeededJson(db: Executor, input: ListInput, audit: ListAudit): Promise<ListAnswer> {
  return selectListAnswer(
    db,
    sql`
    with base as (${scopedPrescriptionsSql(input.userId, input.todayIso, { prescriber: input.filterBy })}),
    rxs as (
      select p.prescriber_id, p.patient_id,
        json_agg(json_build_object(
          'id', p.id, 'practiceId', p.md_office_id, 'patientID', p.patient_id, 'needsRefillAuth', p.refill_due, 'phoneException', p.phone_exception,
          'substitutionStatus', p.substitution_status, 'priorAuthStatus', p.prior_auth_status,
          'priorAuthMethod', p.prior_auth_method, 'hcpActionRequired', p.hcp_action_required,
          'dispensedNdc', p.dispensed_ndc, 'prescribedNdc', p.prescribed_ndc, 'drugName', p.drug_name,
          'strength', p.strength, 'quantity', p.quantity, 'daysSupply', p.days_supply, 'refills', p.refills, 'sig', p.sig,
          'prescribedDate', to_char(p.prescribed_at, 'YYYY-MM-DD HH24:MI:SS"Z"'),
          'lastProcessedDate', to_char(p.last_processed_at, 'YYYY-MM-DD HH24:MI:SS"Z"'),
          'orderNumber', p.order_number, 'orderStatus', p.order_status, 'price', p.price::float8,
          'alternativeMeds', ${alternativeMedsJsonSql('p')},
          'lastFilledOn', to_char(p.last_filled_on, 'YYYY-MM-DD'), 'refillsRemaining', p.refills_remaining,
          'prepared', ${preparedJsonSql('p')}, 'faxByRule', ${faxByRuleSql('p')},
          'controlled', (select json_build_object('schedule', dp.dea_schedule) from drug_products dp
            where dp.ndc in (p.prescribed_ndc, p.dispensed_ndc) and dp.is_controlled limit 1)
        ) order by p.prescribed_at, p.id) as prescriptions
      from base p
      where ${CATEGORY_SQL[input.actionType]}
      group by p.prescriber_id, p.patient_id
    ),
    ${audit(sql`select patient_id from rxs`)},
    pts as (
      select r.prescriber_id,
        json_agg(json_build_object(
          'id', pt.id, 'firstName', pt.first_name, 'lastName', pt.last_name, 'dob', to_char(pt.dob, 'YYYY-MM-DD'),
          'phoneNumbers', to_json(pt.phone_numbers), 'prescriptions', r.prescriptions
        ) order by lower(pt.last_name), lower(pt.first_name), pt.id) as patients
      from rxs r join patients pt on pt.id = r.patient_id
      group by r.prescriber_id
    )
    select json_build_object('doctors', coalesce(json_agg(json_build_object(
      'doctorId', d.id, 'name', d.first_name || ' ' || d.last_name, 'role', d.role, 'patients', x.patients
    ) order by lower(d.last_name), lower(d.first_name), d.id), '[]'::json))::text as body, ${SHOWN_COLUMN}
    from pts x join md_staff d on d.id = x.prescriber_id
  `,
    '{"doctors":[]}',
    // 12 texts at most (category x prescriber filter), each read on every refetch of the screen.
    { prepared: true },
  );
}

/**
 * The prescriptions of the user's practices (optionally one prescriber's or one practice's), each with `refill_due`
 * worked out for today: what the Action Needed list and the queue read from.
 */
export function scopedPrescriptionsSql(
  userId: string,
  todayIso: string,
  only: { prescriber?: string | undefined; practice?: string | undefined } = {},
  /**
   * How the practices are matched, chosen by measurement (docs/performance.md): `= any(array(scope))` has PostgreSQL
   * work out the scope first and use the practice index, which keeps Action Needed flat from 10k to 1M prescriptions;
   * the queue's larger statement is planned badly that way (0.7 s instead of 75 ms on 100k) and keeps `in (scope)`.
   */
  match: 'scope-first' | 'semi-join' = 'scope-first',
): SQL {
  const scope = patientScopeSql(userId);
  return sql`
      select rx.*, ${refillDueSql('rx', todayIso)} as refill_due
      from prescriptions rx
      where ${match === 'scope-first' ? sql`rx.md_office_id = any(array(${scope}))` : sql`rx.md_office_id in (${scope})`}
        ${only.prescriber ? sql`and rx.prescriber_id = ${only.prescriber}::uuid` : sql``}
        ${only.practice ? sql`and rx.md_office_id = ${only.practice}::uuid` : sql``}`;
}

/** A prescription the user may act on, locked for the transaction; null when outside their offices. */
export async function lockPrescriptions(db: Executor, userId: string, ids: string[]) {
  return db
    .select({
      id: prescriptions.id,
      patientId: prescriptions.patientId,
      mdOfficeId: prescriptions.mdOfficeId,
      prescriberId: prescriptions.prescriberId,
      drugName: prescriptions.drugName,
      strength: prescriptions.strength,
      refills: prescriptions.refills,
      sig: prescriptions.sig,
      needsRefillAuth: prescriptions.needsRefillAuth,
      refillPostponedUntil: prescriptions.refillPostponedUntil,
      phoneException: prescriptions.phoneException,
      substitutionStatus: prescriptions.substitutionStatus,
      selectedAlternativeMed: prescriptions.selectedAlternativeMed,
      priorAuthStatus: prescriptions.priorAuthStatus,
      orderStatus: prescriptions.orderStatus,
      version: prescriptions.version,
      faxRuleId: prescriptions.faxRuleId,
      // By its NDC in the catalogue (decision 0029): a bulk refill decision leaves it out.
      isControlled: sql<boolean>`exists (select 1 from drug_products dp where dp.ndc in (${prescriptions.prescribedNdc}, ${prescriptions.dispensedNdc}) and dp.is_controlled)`,
      prescribeVia: sql<string | null>`(select o.prescribe_via from md_offices o where o.id = ${prescriptions.mdOfficeId})`,
    })
    .from(prescriptions)
    .where(and(inArray(prescriptions.id, ids), sql`${prescriptions.mdOfficeId} in (${patientScopeSql(userId)})`))
    .orderBy(asc(prescriptions.id))
    .for('update');
}
export type LockedPrescription = Awaited<ReturnType<typeof lockPrescriptions>>[number];

export async function updatePrescription(db: Executor, id: string, changes: Partial<typeof prescriptions.$inferInsert>) {
  await db
    .update(prescriptions)
    .set({ ...changes, version: sql`${prescriptions.version} + 1`, updatedAt: new Date() })
    .where(eq(prescriptions.id, id));
}

export async function setUserPreference(
  db: Executor,
  userId: string,
  prefs: { skipErxConfirmation?: boolean; skipPriorAuthDismissNotice?: boolean; skipSendConfirmation?: boolean },
) {
  await db.update(users).set(prefs).where(eq(users.id, userId));
}

/** Patients with the user's open phone exceptions, locked; those outside the user's offices are absent. */
export async function lockPatients(db: Executor, userId: string, ids: string[]) {
  return db
    .select({ id: patients.id, phoneNumbers: patients.phoneNumbers })
    .from(patients)
    .where(and(inArray(patients.id, ids), sql`${patients.mdOfficeId} in (${patientScopeSql(userId)})`))
    .orderBy(asc(patients.id))
    .for('update');
}

export async function openPhoneExceptionsOf(db: Executor, patientIds: string[]) {
  return db
    .select({ id: prescriptions.id, patientId: prescriptions.patientId })
    .from(prescriptions)
    .where(and(inArray(prescriptions.patientId, patientIds), eq(prescriptions.phoneException, true)))
    .for('update');
}

export async function setPatientPhones(db: Executor, patientId: string, phoneNumbers: string[]) {
  await db.update(patients).set({ phoneNumbers, updatedAt: new Date() }).where(eq(patients.id, patientId));
}

export async function clearPhoneExceptions(db: Executor, patientIds: string[]) {
  await db
    .update(prescriptions)
    .set({ phoneException: false, version: sql`${prescriptions.version} + 1`, updatedAt: new Date() })
    .where(and(inArray(prescriptions.patientId, patientIds), eq(prescriptions.phoneException, true)));
}

/** What the pharmacy's fax or eRx message and the printed request need about a prescription. */
export async function prescriptionDocument(db: Executor, userId: string, id: string) {
  const rows = await db
    .select({
      id: prescriptions.id,
      drugName: prescriptions.drugName,
      strength: prescriptions.strength,
      quantity: prescriptions.quantity,
      refills: prescriptions.refills,
      sig: prescriptions.sig,
      prescribedNdc: prescriptions.prescribedNdc,
      substitutionStatus: prescriptions.substitutionStatus,
      offeredAlternatives: prescriptions.offeredAlternatives,
      prescribedAt: prescriptions.prescribedAt,
      patientFirstName: patients.firstName,
      patientLastName: patients.lastName,
      patientDob: patients.dob,
      prescriberFirstName: mdStaff.firstName,
      prescriberLastName: mdStaff.lastName,
      prescriberRole: mdStaff.role,
      prescriberNpi: mdStaff.npi,
      officeName: mdOffices.name,
      officeAddress: mdOffices.address1,
      officeCity: mdOffices.city,
      officeState: mdOffices.state,
      officeZip: mdOffices.zip,
      officePhone: mdOffices.phone,
      officeFax: mdOffices.fax,
    })
    .from(prescriptions)
    .innerJoin(patients, eq(patients.id, prescriptions.patientId))
    .innerJoin(mdStaff, eq(mdStaff.id, prescriptions.prescriberId))
    .innerJoin(mdOffices, eq(mdOffices.id, prescriptions.mdOfficeId))
    .where(and(eq(prescriptions.id, id), sql`${prescriptions.mdOfficeId} in (${patientScopeSql(userId)})`))
    .limit(1);
  return rows[0] ?? null;
}

/** The alternatives a pharmacy offered for this prescription (FHIR Task), else the catalogue's for the drug. */
export async function alternativesOf(db: Executor, drugName: string, offered: string[] | null): Promise<string[]> {
  if (offered?.length) return offered;
  const rows = await db
    .select({ name: drugAlternatives.alternativeName })
    .from(drugAlternatives)
    .where(eq(drugAlternatives.drugName, drugName))
    .orderBy(asc(drugAlternatives.rank));
  return rows.map((r) => r.name);
}

/** The timeline of one prescription of the user's offices, oldest first; null when outside them. */
export async function eventsOf(db: Executor, userId: string, id: string) {
  const visible = await db
    .select({ id: prescriptions.id })
    .from(prescriptions)
    .where(and(eq(prescriptions.id, id), sql`${prescriptions.mdOfficeId} in (${patientScopeSql(userId)})`))
    .limit(1);
  if (visible.length === 0) return null;
  return db
    .select({
      id: prescriptionEvents.id,
      type: prescriptionEvents.type,
      at: prescriptionEvents.createdAt,
      data: prescriptionEvents.data,
      actorName: users.displayName,
      undoneAt: prescriptionEvents.undoneAt,
      heldUntil: sql<Date | string | null>`(select o.not_before from outbox o where o.event_id = ${prescriptionEvents.id}
        and o.dispatched_at is null and o.cancelled_at is null and o.not_before > now() limit 1)`,
    })
    .from(prescriptionEvents)
    .leftJoin(users, eq(users.id, prescriptionEvents.actorUserId))
    .where(eq(prescriptionEvents.prescriptionId, id))
    .orderBy(asc(prescriptionEvents.createdAt), asc(prescriptionEvents.id));
}

/** Per decision event of a prescription: how its webhook deliveries stand (the least advanced speaks for all). */
export async function deliveryOfEvents(db: Executor, prescriptionId: string) {
  const result = (await db.execute(sql`
    select o.event_id::float8 as "eventId",
      min(d.created_at) as "sentAt",
      bool_and(d.status = 'delivered') as "allDelivered",
      bool_or(d.status = 'dead') as "anyDead",
      bool_or(d.status = 'pending' and d.first_attempt_at is not null) as "anyFailing",
      max(d.delivered_at) as "deliveredAt",
      min(d.next_attempt_at) filter (where d.status = 'pending' and d.first_attempt_at is not null) as "nextAttemptAt"
    from outbox o join webhook_deliveries d on d.outbox_id = o.id
    where o.prescription_id = ${prescriptionId} and o.event_id is not null
    group by o.event_id`)) as unknown as {
    rows: {
      eventId: number;
      sentAt: Date | string;
      allDelivered: boolean;
      anyDead: boolean;
      anyFailing: boolean;
      deliveredAt: Date | string | null;
      nextAttemptAt: Date | string | null;
    }[];
  };
  return result.rows;
}

/** What a bulk authorization needs to know before it runs (how the practice sends, refills, sig); scoped. */
export async function authorizationFacts(db: Executor, userId: string, ids: string[]) {
  return db
    .select({
      id: prescriptions.id,
      refills: prescriptions.refills,
      sig: prescriptions.sig,
      prescribeVia: mdOffices.prescribeVia,
      faxRuleId: prescriptions.faxRuleId,
    })
    .from(prescriptions)
    .innerJoin(mdOffices, eq(mdOffices.id, prescriptions.mdOfficeId))
    .where(and(inArray(prescriptions.id, ids), sql`${prescriptions.mdOfficeId} in (${patientScopeSql(userId)})`));
}

// ---- prepared decisions (issue 23) ----

export async function upsertPreparedDecision(
  db: Executor,
  row: { prescriptionId: string; decision: unknown; preparedBy: string; prescriptionVersion: number },
) {
  await db
    .insert(preparedDecisions)
    .values(row)
    .onConflictDoUpdate({
      target: preparedDecisions.prescriptionId,
      set: {
        decision: row.decision,
        preparedBy: row.preparedBy,
        prescriptionVersion: row.prescriptionVersion,
        preparedAt: new Date(),
      },
    });
}

/** Removes what was prepared for the prescription; answers whether there was anything. */
export async function deletePreparedDecision(db: Executor, prescriptionId: string): Promise<RemovedPreparation | null> {
  const [row] = await db
    .delete(preparedDecisions)
    .where(eq(preparedDecisions.prescriptionId, prescriptionId))
    .returning({ decision: preparedDecisions.decision, preparedBy: preparedDecisions.preparedBy });
  return row ?? null;
}

/** What a decision removed of a preparation, kept with its undo so that an undo brings it back (issue 47). */
export interface RemovedPreparation {
  decision: unknown;
  preparedBy: string;
}

/** Puts back what an undone decision had removed, for the prescription as the undo left it (its new version). */
export async function restorePreparedDecision(
  db: Executor,
  prescriptionId: string,
  removed: RemovedPreparation,
  prescriptionVersion: number,
) {
  await db
    .insert(preparedDecisions)
    .values({ prescriptionId, ...removed, prescriptionVersion })
    .onConflictDoNothing({ target: preparedDecisions.prescriptionId });
}

/**
 * The prepared decisions of these prescriptions within the user's practices, with who prepared them. Outside them
 * nothing comes back, so a signature learns nothing of an id it may not see (refused like an unprepared one).
 */
export async function preparedDecisionsOf(db: Executor, userId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      prescriptionId: preparedDecisions.prescriptionId,
      decision: preparedDecisions.decision,
      prescriptionVersion: preparedDecisions.prescriptionVersion,
      preparedByName: users.displayName,
    })
    .from(preparedDecisions)
    .innerJoin(users, eq(users.id, preparedDecisions.preparedBy))
    .innerJoin(prescriptions, eq(prescriptions.id, preparedDecisions.prescriptionId))
    .where(and(inArray(preparedDecisions.prescriptionId, ids), sql`${prescriptions.mdOfficeId} in (${patientScopeSql(userId)})`));
}

/** Timeline events that are not decisions to the pharmacy (a preparation, reminders), in one statement. */
export async function insertEvents(db: Executor, events: (typeof prescriptionEvents.$inferInsert)[]) {
  if (events.length > 0) await db.insert(prescriptionEvents).values(events);
}

/**
 * Chart notes sent (and not undone) for the patient of prescription `id`, newest first; null when the prescription is
 * outside the user's practices. Another patient's notes never come back: the patient is the prescription's own.
 */
export async function earlierChartNotes(db: Executor, userId: string, id: string, limit = 5) {
  const found = await db
    .select({ patientId: prescriptions.patientId })
    .from(prescriptions)
    .where(and(eq(prescriptions.id, id), sql`${prescriptions.mdOfficeId} in (${patientScopeSql(userId)})`));
  const patientId = found[0]?.patientId;
  if (!patientId) return null;
  const result = (await db.execute(sql`
    select e.prescription_id as "prescriptionId", rx.drug_name as "drugName", rx.strength,
      to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "sentAt",
      e.data->>'chartNote' as "chartNote", coalesce((e.data->>'isICD10TriedAndFailed')::boolean, false) as "isICD10TriedAndFailed"
    from prescription_events e join prescriptions rx on rx.id = e.prescription_id
    where rx.patient_id = ${patientId}::uuid and e.type = ${'PRIOR_AUTH_CHART_NOTES_SENT'} and e.undone_at is null
      and coalesce(e.data->>'chartNote', '') <> ''
    order by e.created_at desc, e.id desc
    limit ${limit}`)) as unknown as {
    rows: {
      prescriptionId: string;
      drugName: string;
      strength: string | null;
      sentAt: string;
      chartNote: string;
      isICD10TriedAndFailed: boolean;
    }[];
  };
  return { patientId, rows: result.rows };
}
