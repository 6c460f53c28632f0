/**
 * SQL of the FHIR write side (issue 19): business identifiers, and one tenant's patients, prescriptions and
 * inbound tasks as the mapping reads and writes them. Every query is tenant-filtered; a row of another tenant is
 * never found.
 */
import { localTodayIso, PRESCRIBER_ROLES, type WebhookEvent } from '@hcp/contract';
import { and, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { arrayParam, type Executor, placeholdersOf, placeholderValues, prepared, shapedStatement } from '../../db/client.ts';
import {
  appeals,
  commentMentions,
  comments,
  fhirIdentifiers,
  inboundTasks,
  mdOffices,
  mdStaff,
  officeMembers,
  patients,
  prescriptionEvents,
  prescriptions,
} from '../../db/schema.ts';
import { type AuditEntry, auditRowOf } from '../../lib/audit.ts';
import { notifyPracticeOfPatient, notifyPracticeOfPrescription, practiceItemsNotifySql } from '../../lib/live.ts';
import { altMedPendingSql, priorAuthNeedsActionSql } from '../../lib/prescription-sql.ts';
import { likeEscape } from '../../lib/sql-like.ts';
import type { BusinessIdentifier } from './mapping/common.ts';
import type { CommentRow } from './mapping/communication.ts';
import { CATEGORY_OF_EVENT } from './mapping/decision.ts';
import type { PrescriptionFields, PrescriptionRow } from './mapping/medication-request.ts';
import type { PatientFields, PatientRow } from './mapping/patient.ts';
import type { TaskInputs, TaskRow } from './mapping/task.ts';
import { isId, NONE, type Page } from './repository.ts';
import { auditAndKeepVersionsCtes, type KeptVersion, type RecordedWrite } from './versions-repository.ts';

export type RecordType = 'Patient' | 'MedicationRequest' | 'Task' | 'Communication';

/** Search filters every written resource type shares. */
export interface RecordFilter {
  id?: string;
  /** `_id`: any of these. */
  ids?: string[];
  identifier?: { system: string | null; value: string };
  lastUpdated?: { op: 'ge' | 'lt'; at: Date }[];
  status?: string[];
  /** `patient` / `subject`: each must be the record's patient. */
  patientIds?: string[];
  /** Task `focus`: the prescription. */
  focus?: string;
  /** Task `owner`: the prescriber. */
  owner?: string;
  /** Patient `name`: the start of a given or family name, in any case. */
  name?: string;
  /** Patient `birthdate`. */
  birthDate?: { op: 'ge' | 'lt'; at: Date }[];
}

/** The columns of one table that the search parameters beyond id, identifier and _lastUpdated compare with. */
interface SearchColumns {
  id: SQL;
  updatedAt: SQL;
  status?: SQL;
  patient?: SQL;
  focus?: SQL;
  owner?: SQL;
  names?: SQL[];
  birthDate?: SQL;
}

// ---- business identifiers ----

export async function entityOfIdentifier(db: Executor, tenantId: string, type: RecordType, id: BusinessIdentifier) {
  const [row] = await db
    .select({ entityId: fhirIdentifiers.entityId })
    .from(fhirIdentifiers)
    .where(
      and(
        eq(fhirIdentifiers.tenantId, tenantId),
        eq(fhirIdentifiers.resourceType, type),
        eq(fhirIdentifiers.system, id.system),
        eq(fhirIdentifiers.value, id.value),
      ),
    );
  return row?.entityId ?? null;
}

/** Claims the identifier for a new record; false when another request claimed it first (then read theirs). */
export async function claimIdentifier(
  db: Executor,
  row: { tenantId: string; type: RecordType; identifier: BusinessIdentifier; entityId: string; clientId: string },
) {
  const claimed = await db
    .insert(fhirIdentifiers)
    .values({
      tenantId: row.tenantId,
      resourceType: row.type,
      system: row.identifier.system,
      value: row.identifier.value,
      entityId: row.entityId,
      clientId: row.clientId,
    })
    .onConflictDoNothing()
    .returning({ entityId: fhirIdentifiers.entityId });
  return claimed.length === 1;
}

/**
 * The business identifiers of the row aliased `alias`, oldest first, as a JSON array: a column of the row's own
 * statement (a read, a search page, a locked row), not a statement of its own.
 */
const identifiersSql = (type: RecordType, alias: string) => sql`(select coalesce(json_agg(json_build_object(
    'system', fi.system, 'value', fi.value) order by fi.created_at), '[]'::json)
  from fhir_identifiers fi where fi.resource_type = ${type} and fi.entity_id = ${sql.raw(alias)}.id) as identifiers`;

/**
 * The conditions of a search over one table; null when it can match nothing (an id that is not one of ours). Each
 * filter applies only where the table has the column: the routes apply only the parameters the type supports.
 */
function filterSql(tenantId: string, type: RecordType, table: SearchColumns, filter: RecordFilter): SQL[] | null {
  const ids = (values: string[]) => values.filter(isId);
  if (filter.id !== undefined && !isId(filter.id)) return null;
  const conditions: SQL[] = [];
  if (filter.id !== undefined) conditions.push(sql`${table.id} = ${filter.id}`);
  if (filter.ids) {
    const wanted = ids(filter.ids);
    if (wanted.length === 0) return null;
    conditions.push(sql`${table.id} = any(${arrayParam(wanted, 'uuid')})`);
  }
  if (filter.identifier) {
    const { system, value } = filter.identifier;
    conditions.push(sql`${table.id} in (
      select entity_id from fhir_identifiers
      where tenant_id = ${tenantId} and resource_type = ${type} and value = ${value}
      ${system ? sql`and system = ${system}` : sql``})`);
  }
  const ops = { ge: sql`>=`, lt: sql`<` };
  for (const { op, at } of filter.lastUpdated ?? []) conditions.push(sql`${table.updatedAt} ${ops[op]} ${at.toISOString()}`);
  if (filter.status && table.status)
    conditions.push(
      sql`${table.status} in (${sql.join(
        filter.status.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  const reference = (column: SQL | undefined, id: string | undefined) => {
    if (column === undefined || id === undefined) return true;
    if (!isId(id)) return false;
    conditions.push(sql`${column} = ${id}`);
    return true;
  };
  for (const patientId of filter.patientIds ?? []) if (!reference(table.patient, patientId)) return null;
  if (!reference(table.focus, filter.focus) || !reference(table.owner, filter.owner)) return null;
  if (filter.name !== undefined && table.names) {
    const pattern = `${likeEscape(filter.name.trim().toLowerCase())}%`;
    conditions.push(
      sql`(${sql.join(
        table.names.map((column) => sql`lower(${column}) like ${pattern}`),
        sql` or `,
      )})`,
    );
  }
  // A date of birth is a day: a range's instants are compared as the UTC days they start on.
  const day = (at: Date) => at.toISOString().slice(0, 10);
  for (const { op, at } of filter.birthDate ?? [])
    if (table.birthDate) conditions.push(sql`${table.birthDate} ${ops[op]} ${day(at)}::date`);
  return conditions;
}

const rowsOf = (result: unknown) => (result as { rows: ({ id: string } & Record<string, unknown>)[] }).rows;
/** Timestamps as epoch milliseconds: one number on both engines, whatever their date parsers do. */
const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
/** The row with these columns (epoch milliseconds or null) as dates. */
function withDates(raw: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const row: Record<string, unknown> = { ...raw };
  for (const key of keys) row[key] = raw[key] === null ? null : new Date(Number(raw[key]));
  return row;
}
const and_ = (conditions: SQL[]) => sql.join(conditions, sql` and `);

/** One written type's list query: its columns, its tenant-filtered FROM, its id/updated/status expressions. */
interface ListQuery {
  type: RecordType;
  /** The alias of the table a write locks (`for update of <alias>`). */
  alias: 'pt' | 'rx' | 't' | 'c';
  columns: SQL;
  from: (tenantId: string) => SQL;
  table: SearchColumns;
  /** A condition every row meets (a patient's comments only). */
  always?: SQL;
  /** Columns answered as epoch milliseconds (or null), turned into dates. */
  dates: string[];
}

/** Rows of one written type by the search filter, a page of them, with their business identifiers. */
async function listRecords<Row>(
  db: Executor,
  tenantId: string,
  query: ListQuery,
  filter: RecordFilter,
  page: Page,
  lock: boolean,
): Promise<{ rows: Row[]; total: number }> {
  const conditions = filterSql(tenantId, query.type, query.table, filter);
  if (!conditions) return NONE;
  const all = [...(query.always ? [query.always] : []), ...conditions];
  const where = all.length ? sql`where ${and_(all)}` : sql``;
  const from = query.from(tenantId);
  const [rows, total] = await Promise.all([
    db.execute(sql`select ${query.columns}, ${identifiersSql(query.type, query.alias)} from ${from} ${where}
      order by ${query.table.updatedAt}, ${query.table.id} limit ${page.count} offset ${page.offset}
      ${lock ? sql`for update of ${sql.raw(query.alias)}` : sql``}`),
    // A read by id, by identifier or under lock is one row at most: no count to run.
    lock || filter.id !== undefined ? null : db.execute(sql`select count(*)::int as n from ${from} ${where}`),
  ]);
  const found = rowsOf(rows).map((r) => withDates(r, query.dates) as Row);
  return {
    rows: found,
    total: total ? Number(rowsOf(total)[0]?.n) : found.length,
  };
}

/** The refill and PA choices of the practice a prescription belongs to (spec §4). */
export async function practicePreferencesOfPrescription(db: Executor, prescriptionId: string) {
  const [row] = await db
    .select({ refillRequestOption: mdOffices.refillRequestOption, paHandling: mdOffices.paHandling })
    .from(prescriptions)
    .innerJoin(mdOffices, eq(mdOffices.id, prescriptions.mdOfficeId))
    .where(eq(prescriptions.id, prescriptionId));
  return row ?? null;
}

// ---- patients ----

export async function practiceInTenant(db: Executor, tenantId: string, practiceId: string) {
  if (!isId(practiceId)) return false;
  const [row] = await db
    .select({ id: mdOffices.id })
    .from(mdOffices)
    .where(and(eq(mdOffices.id, practiceId), eq(mdOffices.tenantId, tenantId), isNull(mdOffices.deletedAt)));
  return Boolean(row);
}

const patientColumns = sql`pt.id, pt.md_office_id as "practiceId", pt.first_name as "firstName", pt.last_name as "lastName",
  pt.dob::text as dob, pt.phone_numbers as "phoneNumbers", pt.address1, pt.city, pt.state, pt.zip, ${epochMs(sql`pt.updated_at`)} as "updatedAt"`;
const patientsOfTenant = (tenantId: string) =>
  sql`patients pt join md_offices o on o.id = pt.md_office_id and o.tenant_id = ${tenantId}`;

export const patientRows = (db: Executor, tenantId: string, filter: RecordFilter, page: Page, lock = false) =>
  listRecords<PatientRow>(
    db,
    tenantId,
    {
      type: 'Patient',
      alias: 'pt',
      columns: patientColumns,
      from: patientsOfTenant,
      table: {
        id: sql`pt.id`,
        updatedAt: sql`pt.updated_at`,
        names: [sql`pt.first_name`, sql`pt.last_name`],
        birthDate: sql`pt.dob`,
      },
      dates: ['updatedAt'],
    },
    filter,
    page,
    lock,
  );

export async function insertPatient(db: Executor, id: string, fields: PatientFields) {
  const { practiceId, ...rest } = fields;
  await db.insert(patients).values({ id, mdOfficeId: practiceId, ...rest });
}

export async function updatePatient(db: Executor, id: string, fields: PatientFields) {
  const { practiceId, ...rest } = fields;
  await db
    .update(patients)
    .set({ mdOfficeId: practiceId, ...rest, updatedAt: new Date() })
    .where(eq(patients.id, id));
}

/** Whether the patient has prescriptions (their practice can then no longer change through FHIR). */
export async function patientHasPrescriptions(db: Executor, patientId: string) {
  const [row] = await db.select({ n: count() }).from(prescriptions).where(eq(prescriptions.patientId, patientId));
  return (row?.n ?? 0) > 0;
}

// ---- prescriptions ----

/** A prescriber of the practice, by our id or by NPI. */
export async function prescriberOfPractice(db: Executor, practiceId: string, who: { id: string } | { npi: string }) {
  if ('id' in who && !isId(who.id)) return null;
  const [row] = await db
    .select({ id: mdStaff.id })
    .from(mdStaff)
    .innerJoin(officeMembers, and(eq(officeMembers.mdStaffId, mdStaff.id), eq(officeMembers.mdOfficeId, practiceId)))
    .where(
      and(
        'id' in who ? eq(mdStaff.id, who.id) : eq(mdStaff.npi, who.npi),
        inArray(mdStaff.role, [...PRESCRIBER_ROLES]),
        isNull(mdStaff.deletedAt),
      ),
    );
  return row?.id ?? null;
}

const prescriptionColumns = sql`rx.id, rx.patient_id as "patientId", rx.prescriber_id as "prescriberId", rx.drug_name as "drugName",
  rx.prescribed_ndc as "prescribedNdc", rx.quantity, rx.days_supply as "daysSupply", rx.refills, rx.sig,
  rx.dispense_as_written as "dispenseAsWritten", rx.version,
  ${epochMs(sql`rx.prescribed_at`)} as "prescribedAt", ${epochMs(sql`rx.updated_at`)} as "updatedAt",
  rx.md_office_id as "practiceId"`;
const prescriptionsOfTenant = (tenantId: string) =>
  sql`prescriptions rx join md_offices o on o.id = rx.md_office_id and o.tenant_id = ${tenantId}`;

export const prescriptionRows = (db: Executor, tenantId: string, filter: RecordFilter, page: Page, lock = false) =>
  listRecords<PrescriptionRow & { practiceId: string }>(
    db,
    tenantId,
    {
      type: 'MedicationRequest',
      alias: 'rx',
      columns: prescriptionColumns,
      from: prescriptionsOfTenant,
      table: { id: sql`rx.id`, updatedAt: sql`rx.updated_at`, patient: sql`rx.patient_id` },
      dates: ['prescribedAt', 'updatedAt'],
    },
    filter,
    page,
    lock,
  );

type PrescriptionValues = Omit<PrescriptionFields, 'prescriber' | 'ndc'> & {
  prescriberId: string;
  practiceId: string;
  ndc: string | null;
  orderNumber: string;
};
const prescriptionValues = ({ practiceId, ndc, ...rest }: PrescriptionValues) => ({
  ...rest,
  mdOfficeId: practiceId,
  prescribedNdc: ndc,
});

export async function insertPrescription(db: Executor, id: string, values: PrescriptionValues) {
  await db.insert(prescriptions).values({ id, ...prescriptionValues(values) });
}

export async function updatePrescription(db: Executor, id: string, values: PrescriptionValues) {
  await db
    .update(prescriptions)
    .set({ ...prescriptionValues(values), version: sql`${prescriptions.version} + 1`, updatedAt: new Date() })
    .where(eq(prescriptions.id, id));
}

/** The columns a Task raises or clears on its prescription (one category's flag), version bumped. */
export async function setPrescriptionFlags(db: Executor, id: string, set: Partial<typeof prescriptions.$inferInsert>) {
  await db
    .update(prescriptions)
    .set({ ...set, version: sql`${prescriptions.version} + 1`, updatedAt: new Date() })
    .where(eq(prescriptions.id, id));
  // The practice's open portals refetch when this commits.
  await notifyPracticeOfPrescription(db, id);
}

export async function insertPrescriptionEvent(
  db: Executor,
  row: { prescriptionId: string; type: string; requestId: string; data: Record<string, unknown> },
) {
  await db.insert(prescriptionEvents).values({ ...row, actorUserId: null });
}

// ---- tasks ----

/** Whether the prescription still shows the task's category on Action Needed. */
const itemOpenSql = sql`case t.category
  when 'refillAuth' then rx.needs_refill_auth
  when 'priorAuth' then ${priorAuthNeedsActionSql('rx')}
  when 'altMed' then ${altMedPendingSql('rx')}
  when 'phoneException' then rx.phone_exception
  when 'appeals' then rx.hcp_action_required
  else false end`;
/**
 * A refill request postponed to a later day than today: that day. The item stays on the prescription (it comes
 * back), and the Task reads on-hold until then (issue 46 part 3). Today is this process's local day, as the
 * portal's own lists count it (contract localTodayIso).
 */
const postponedUntilSql = (today: string) => sql`case when t.category = 'refillAuth' and rx.needs_refill_auth
  and rx.refill_postponed_until > ${today}::date then rx.refill_postponed_until::text end`;
/** The status a Task reads (mapping/task.ts effectiveStatus, as SQL for the status search). */
const taskStatusSql = (today: string) => sql`(case when t.status in ('cancelled', 'entered-in-error') then t.status
  when not coalesce(${itemOpenSql}, false) then 'completed'
  when ${postponedUntilSql(today)} is not null then 'on-hold' else t.status end)`;
/** The decision events of each category, as SQL: which outbox rows answer a Task of the category. */
const categoryOfEventSql = sql.raw(
  `case d.event_type ${Object.entries(CATEGORY_OF_EVENT)
    .flatMap(([event, category]) => (category ? [`when '${event}' then '${category}'`] : []))
    .join(' ')} end`,
);
/**
 * The newest decision on the Task's prescription and category since the Task came, not undone: what the Task reads
 * as answered by (the webhook message said the same). One outbox row, by the prescription's own index.
 */
const latestDecisionSql = sql`left join lateral (
    select d.event_type as event, e.type as "timelineType", e.data, ${epochMs(sql`d.created_at`)} as at
    from outbox d left join prescription_events e on e.id = d.event_id
    where d.prescription_id = t.prescription_id and d.event_type is not null and d.cancelled_at is null
      and d.created_at >= t.created_at and ${categoryOfEventSql} = t.category
    order by d.seq desc limit 1) ans on true`;
const tasksOfTenant = (tenantId: string) =>
  sql`inbound_tasks t join prescriptions rx on rx.id = t.prescription_id and t.tenant_id = ${tenantId}
    left join appeals a on a.id = t.appeal_id ${latestDecisionSql}`;

type TaskRowOfSql = Omit<TaskRow, 'decision'> & {
  decisionEvent: WebhookEvent | null;
  decisionTimelineType: string | null;
  decisionData: Record<string, unknown> | null;
  decisionAt: Date | null;
};

export async function taskRows(db: Executor, tenantId: string, filter: RecordFilter, page: Page, lock = false) {
  const today = localTodayIso();
  const found = await listRecords<TaskRowOfSql>(
    db,
    tenantId,
    {
      type: 'Task',
      alias: 't',
      columns: sql`t.id, t.category, t.status, t.business_status as "businessStatus", t.input, t.note,
        t.prescription_id as "prescriptionId", rx.patient_id as "patientId", rx.prescriber_id as "prescriberId",
        coalesce(${itemOpenSql}, false) as "itemOpen", ${postponedUntilSql(today)} as "postponedUntil", t.version,
        ${epochMs(sql`a.access_key_expires_at`)} as "appealExpiresAt",
        case when a.id is null then null else a.submitted_at is not null end as "appealSubmitted",
        ${epochMs(sql`t.created_at`)} as "createdAt", ${epochMs(sql`t.updated_at`)} as "updatedAt",
        ans.event as "decisionEvent", ans."timelineType" as "decisionTimelineType", ans.data as "decisionData",
        ans.at as "decisionAt"`,
      from: tasksOfTenant,
      table: {
        id: sql`t.id`,
        updatedAt: sql`t.updated_at`,
        status: taskStatusSql(today),
        patient: sql`rx.patient_id`,
        focus: sql`t.prescription_id`,
        owner: sql`rx.prescriber_id`,
      },
      dates: ['createdAt', 'updatedAt', 'appealExpiresAt', 'decisionAt'],
    },
    filter,
    page,
    lock,
  );
  const rows: TaskRow[] = found.rows.map(({ decisionEvent, decisionTimelineType, decisionData, decisionAt, ...row }) => ({
    ...row,
    decision:
      decisionEvent && decisionAt
        ? { event: decisionEvent, timelineType: decisionTimelineType ?? '', data: decisionData ?? {}, at: decisionAt }
        : null,
  }));
  return { rows, total: found.total };
}

/** What a new Task's arrival needs to know of the prescription it names, read with its claim. */
export interface TaskArrival {
  /** This transaction's time: what the new row's created and updated times read. */
  now: Date;
  prescription: {
    id: string;
    patientId: string;
    prescriberId: string;
    /** The practice's refill and PA choices (spec §4). */
    preferences: { refillRequestOption: string; paHandling: string };
    /** Whether the practice has an enabled standing rule (a refill request is then answered on arrival). */
    hasRules: boolean;
  } | null;
}

/**
 * Claims new Tasks' identifiers and, for each one that was free, reads the prescription the Task names with its
 * practice's choices and whether a standing rule may answer it: one statement however many Tasks (a transaction
 * Bundle's). Answers each in order; null where the identifier was taken. (No lock on the prescription: what is read
 * here does not change under a decision, and the write that raises the flag takes the row's lock itself.)
 */
export async function claimTaskArrivals(
  db: Executor,
  claims: { tenantId: string; identifier: BusinessIdentifier; entityId: string; clientId: string; prescriptionId: string }[],
): Promise<(TaskArrival | null)[]> {
  if (claims.length === 0) return [];
  const { tenantId, clientId } = claims[0] as (typeof claims)[number];
  type Wanted = { entityId: string; system: string; value: string; rx: string | null };
  const wantedOf = (c: (typeof claims)[number]): Wanted => ({
    entityId: c.entityId,
    system: c.identifier.system,
    value: c.identifier.value,
    rx: isId(c.prescriptionId) ? c.prescriptionId : null,
  });
  const claimSql = (tenant: unknown, client: unknown, wanted: Wanted[]) =>
    prepared(
      sql`with wanted (n, entity_id, system, value, rx) as (values ${sql.join(
        wanted.map((w, n) => sql`(${n}::int, ${w.entityId}::uuid, ${w.system}, ${w.value}, ${w.rx}::uuid)`),
        sql`, `,
      )}),
    claim as (
      insert into fhir_identifiers (tenant_id, resource_type, system, value, entity_id, client_id)
      select ${tenant}, 'Task', system, value, entity_id, ${client} from wanted order by n
      on conflict do nothing returning entity_id)
    select w.n, ${epochMs(sql`now()`)} as now, rx.id, rx.patient_id as "patientId", rx.prescriber_id as "prescriberId",
      o.refill_request_option as "refillRequestOption", o.pa_handling as "paHandling",
      exists (select 1 from standing_rules r where r.md_office_id = rx.md_office_id and r.enabled) as "hasRules"
    from wanted w join claim c on c.entity_id = w.entity_id
    left join (prescriptions rx join md_offices o on o.id = rx.md_office_id and o.tenant_id = ${tenant}) on rx.id = w.rx`,
      wanted.length === 1,
    );
  // One Task: one text, built once and prepared (its build, parse and plan were most of its time); a Bundle's text
  // varies with its size.
  const single = claims.length === 1 ? wantedOf(claims[0] as (typeof claims)[number]) : null;
  const result = await db.execute(
    single
      ? shapedStatement(
          'task-claim',
          () =>
            claimSql(sql.placeholder('tenant'), sql.placeholder('client'), [
              placeholdersOf<Wanted>('w_', ['entityId', 'system', 'value', 'rx']),
            ]),
          { tenant: tenantId, client: clientId, ...placeholderValues('w_', single) },
        )
      : claimSql(tenantId, clientId, claims.map(wantedOf)),
  );
  const arrivals = new Array<TaskArrival | null>(claims.length).fill(null);
  for (const row of rowsOf(result) as unknown as {
    n: number;
    now: number;
    id: string | null;
    patientId: string;
    prescriberId: string;
    refillRequestOption: string;
    paHandling: string;
    hasRules: boolean;
  }[]) {
    arrivals[row.n] = {
      now: new Date(Number(row.now)),
      prescription: row.id
        ? {
            id: row.id,
            patientId: row.patientId,
            prescriberId: row.prescriberId,
            preferences: { refillRequestOption: row.refillRequestOption, paHandling: row.paHandling },
            hasRules: row.hasRules,
          }
        : null,
    };
  }
  return arrivals;
}

/** A new open Task as its write needs it (openTasks). */
export interface OpenTask {
  id: string;
  values: TaskValues;
  /** What the Task raises on its prescription. */
  flags: Partial<typeof prescriptions.$inferInsert>;
  event: { type: string; requestId: string; data: Record<string, unknown> };
}

/**
 * New open Tasks in one statement however many: their rows, each prescription's flags raised once (the flags of
 * Tasks on one prescription merged in order; version bumped; the practices' open portals told when this commits),
 * their timeline events, and `recorded` (the writes' audit rows and first versions, auditAndKeepVersionsCtes).
 */
export async function openTasks(db: Executor, tasks: OpenTask[], recorded: RecordedWrite[]): Promise<void> {
  if (tasks.length === 0) return;
  const flagsOf = new Map<string, Partial<typeof prescriptions.$inferInsert>>();
  for (const task of tasks) {
    const id = task.values.prescriptionId;
    flagsOf.set(id, { ...flagsOf.get(id), ...task.flags });
  }
  const task = tasks[0] as OpenTask;
  const write = recorded[0];
  if (tasks.length > 1 || !write) {
    await db.execute(openTasksSql(db, tasks, [...flagsOf], new Date(), auditAndKeepVersionsCtes(recorded)));
    return;
  }
  // One Task, the way nearly every request goes: one text per set of flags its category raises, built once.
  const flags = [...flagsOf][0]?.[1] ?? {};
  const flagNames = Object.keys(flags) as (keyof typeof flags & string)[];
  await db.execute(
    shapedStatement(
      `task-open:${flagNames.join(',')}`,
      () => {
        const values = placeholdersOf<TaskValues>('v_', TASK_VALUE_NAMES);
        const one: OpenTask = {
          id: sql.placeholder('id') as never,
          values,
          flags: placeholdersOf<typeof flags>('f_', flagNames),
          event: placeholdersOf<OpenTask['event']>('e_', ['type', 'requestId', 'data']),
        };
        const rx = sql.placeholder('rx') as never;
        return openTasksSql(
          db,
          [one],
          [[rx, one.flags]],
          sql.placeholder('now') as never,
          auditAndKeepVersionsCtes([
            {
              audit: placeholdersOf<AuditEntry>('a_', AUDIT_ENTRY_NAMES),
              version: placeholdersOf<KeptVersion>('k_', ['tenantId', 'type', 'id', 'versionId', 'resource']),
            },
          ]),
        );
      },
      {
        id: task.id,
        rx: task.values.prescriptionId,
        now: new Date(),
        ...placeholderValues('v_', task.values),
        ...placeholderValues('f_', flags),
        ...placeholderValues('e_', task.event),
        ...placeholderValues('a_', auditValues(write.audit)),
        ...placeholderValues('k_', { ...write.version, resource: JSON.stringify(write.version.resource) }),
      },
    ),
  );
}

const TASK_VALUE_NAMES = [
  'tenantId',
  'clientId',
  'prescriptionId',
  'category',
  'status',
  'businessStatus',
  'input',
  'note',
] as const satisfies readonly (keyof TaskValues)[];
const AUDIT_ENTRY_NAMES = [
  'actorUserId',
  'action',
  'entityType',
  'entityId',
  'requestId',
  'ip',
  'details',
] as const satisfies readonly (keyof AuditEntry)[];

/** An audit entry's every field, as the audit row holds it (details as the text of its JSON). */
const auditValues = (entry: AuditEntry): Record<(typeof AUDIT_ENTRY_NAMES)[number], unknown> => {
  const row = auditRowOf(entry);
  return { ...row, details: JSON.stringify(row.details) };
};

/**
 * The statement of openTasks: the Tasks' rows, each prescription's flags raised once (version bumped, its practice's
 * open portals told when this commits), their timeline events, and `recorded` (audit rows and first versions).
 */
function openTasksSql(
  db: Executor,
  tasks: OpenTask[],
  flagsOf: [string, Partial<typeof prescriptions.$inferInsert>][],
  now: Date,
  recorded: SQL,
): SQL {
  const rows = db.insert(inboundTasks).values(tasks.map((task) => ({ id: task.id, ...task.values })));
  const raised = flagsOf.map(([id, flags], n) => {
    const update = db
      .update(prescriptions)
      .set({ ...flags, version: sql`${prescriptions.version} + 1`, updatedAt: now })
      .where(eq(prescriptions.id, id))
      .returning({ practiceId: prescriptions.mdOfficeId });
    return { name: sql.raw(`rx${n}`), update };
  });
  const timeline = db
    .insert(prescriptionEvents)
    .values(tasks.map((task) => ({ prescriptionId: task.values.prescriptionId, ...task.event, actorUserId: null })));
  // As for the claim: one Task's few shapes (the flags its code raises) are prepared, a Bundle's are not.
  return prepared(
    sql`with t as (${rows.getSQL()}),
      ${sql.join(
        raised.map(({ name, update }) => sql`${name} as (${update.getSQL()})`),
        sql`, `,
      )},
      timeline as (${timeline.getSQL()}),
      told as (${sql.join(
        raised.map(({ name }) => sql`select ${practiceItemsNotifySql(sql`md_office_id`)} from ${name}`),
        sql` union all `,
      )}), ${recorded}
    select count(*) from told`,
    tasks.length === 1,
  );
}

export interface TaskValues {
  tenantId: string;
  clientId: string;
  prescriptionId: string;
  category: string;
  status: string;
  businessStatus: string | null;
  input: TaskInputs;
  note: string | null;
}

export async function insertTask(db: Executor, id: string, values: TaskValues) {
  await db.insert(inboundTasks).values({ id, ...values });
}

export async function updateTask(db: Executor, id: string, values: Omit<TaskValues, 'tenantId' | 'clientId'>) {
  await db
    .update(inboundTasks)
    // now(), not the clock of this process: the trigger of migration 0026 knows the Task was written in this transaction.
    .set({ ...values, version: sql`${inboundTasks.version} + 1`, updatedAt: sql`now()` })
    .where(eq(inboundTasks.id, id));
}

/** Other open tasks of the same category on the prescription (a cancel clears the flag only when none is left). */
export async function otherOpenTasks(
  db: Executor,
  prescriptionId: string,
  category: string,
  exceptId: string,
  open: readonly string[],
) {
  const [row] = await db
    .select({ n: count() })
    .from(inboundTasks)
    .where(
      and(
        eq(inboundTasks.prescriptionId, prescriptionId),
        eq(inboundTasks.category, category),
        inArray(inboundTasks.status, [...open]),
        sql`${inboundTasks.id} <> ${exceptId}`,
      ),
    );
  return row?.n ?? 0;
}

// ---- patients' comments (Communication) ----

const commentsOfTenant = (tenantId: string) =>
  sql`comments c join md_offices o on o.id = c.md_office_id and o.tenant_id = ${tenantId}`;

/** Patients' comments only: what the office wrote back is the portal's, not the pharmacy's to read here. */
export const commentRows = (db: Executor, tenantId: string, filter: RecordFilter, page: Page, lock = false) =>
  listRecords<CommentRow>(
    db,
    tenantId,
    {
      type: 'Communication',
      alias: 'c',
      columns: sql`c.id, c.patient_id as "patientId", c.md_office_id as "practiceId", c.prescription_id as "prescriptionId",
        c.body, ${epochMs(sql`c.created_at`)} as "createdAt"`,
      from: commentsOfTenant,
      table: { id: sql`c.id`, updatedAt: sql`c.created_at`, patient: sql`c.patient_id` },
      always: sql`c.from_patient`,
      dates: ['createdAt'],
    },
    filter,
    page,
    lock,
  );

/** A patient's comment for their practice, unread there (New Comments). */
export async function insertPatientComment(
  db: Executor,
  id: string,
  values: { patientId: string; practiceId: string; prescriptionId: string | null; body: string; sentAt: Date | null },
) {
  await db.insert(comments).values({
    id,
    patientId: values.patientId,
    mdOfficeId: values.practiceId,
    prescriptionId: values.prescriptionId,
    authorName: 'Patient',
    fromPatient: true,
    body: values.body,
    ...(values.sentAt ? { createdAt: values.sentAt } : {}),
  });
  await db.insert(commentMentions).values({ commentId: id, mdOfficeId: values.practiceId });
  await notifyPracticeOfPatient(db, values.patientId);
}

// ---- appeals opened by a pharmacy's Task ----

/** An appeal for the prescription, signed in to by the prescriber's NPI and the key's hash, for APPEAL_LINK_DAYS. */
export async function insertAppeal(
  db: Executor,
  values: {
    prescriptionId: string;
    npi: string;
    keyHash: string;
    expiresAt: Date;
    payer: string | null;
    denialReason: string | null;
    denialDate: string | null;
    whatIsNeeded: string | null;
    clinicalNotesRequired: boolean;
  },
) {
  const [row] = await db
    .insert(appeals)
    .values({
      prescriptionId: values.prescriptionId,
      status: 'HCP_ACTION_REQUIRED',
      npi: values.npi,
      accessKeyHash: values.keyHash,
      accessKeyExpiresAt: values.expiresAt,
      payer: values.payer,
      denialReason: values.denialReason,
      denialDate: values.denialDate,
      whatIsNeeded: values.whatIsNeeded,
      clinicalNotesRequired: values.clinicalNotesRequired,
    })
    .returning({ id: appeals.id });
  return row?.id as string;
}

export async function setTaskAppeal(db: Executor, taskId: string, appealId: string) {
  await db.update(inboundTasks).set({ appealId }).where(eq(inboundTasks.id, taskId));
}

/** The pharmacy withdrew the appeal: its link stops working now (a submitted appeal stays as it is). */
export async function expireAppealOfTask(db: Executor, taskId: string) {
  await db.execute(sql`update appeals set access_key_expires_at = now(), updated_at = now()
    where id = (select appeal_id from inbound_tasks where id = ${taskId}) and submitted_at is null`);
}

export async function npiOfPrescriber(db: Executor, prescriberId: string) {
  const [row] = await db.select({ npi: mdStaff.npi }).from(mdStaff).where(eq(mdStaff.id, prescriberId));
  return row?.npi ?? null;
}
