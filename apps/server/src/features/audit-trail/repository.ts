/**
 * The audit trail's SQL (issue 49): report pages read audit_subjects (a patient's rows) or the actor's index, one
 * page of 50 newest first; every date range is whole days in the reports' time zone. Only the caller's tenant is
 * read: a patient, a user, a window of another tenant is never found.
 */
import { AUDIT_PAGE_SIZE, PATIENT_READ_ACTIONS, RECORD_READ_ACTIONS } from '@hcp/contract';
import { type SQL, sql } from 'drizzle-orm';
import { arrayParam, type Executor } from '../../db/client.ts';
import { needsActionSql, refillDueSql } from '../../lib/prescription-sql.ts';

type Row = Record<string, unknown>;
export const rowsOf = async <T = Row>(db: Executor, query: SQL): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface Range {
  from: string;
  to: string;
  timeZone: string;
}

/** [from 00:00, the day after `to` 00:00) in the zone, as instants. */
const startOf = (r: Range) => sql`(${r.from}::date::timestamp at time zone ${r.timeZone})`;
const endOf = (r: Range) => sql`((${r.to}::date + 1)::timestamp at time zone ${r.timeZone})`;

export interface Reviewer {
  userId: string;
  tenantId: string;
  name: string;
}

/** The caller when they are a privacy officer of their tenant (an enabled provider admin), else nothing. */
export async function reviewerOf(db: Executor, userId: string): Promise<Reviewer | null> {
  const [row] = await rowsOf<{ id: string; tenant_id: string; display_name: string }>(
    db,
    sql`select id, tenant_id, display_name from users
        where id = ${userId} and privacy_officer and role = 'provider.admin' and disabled_at is null`,
  );
  return row ? { userId: row.id, tenantId: row.tenant_id, name: row.display_name } : null;
}

/** An audit row as the reports show it, before the contract's words are put on it. */
export interface EntryRow {
  id: string;
  at: Date | string;
  action: string;
  ip: string | null;
  request_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  actor_login_role: string | null;
  actor_staff_role: string | null;
  actor_practice: string | null;
  client_id: string | null;
  client_name: string | null;
  via: string | null;
  patients?: { id: string; name: string | null }[] | null;
}

const ENTRY_COLUMNS = sql`a.id::text as id, a.created_at as at, a.action, a.ip, a.request_id,
  a.actor_user_id as actor_id, u.display_name as actor_name, u.role as actor_login_role, st.role as actor_staff_role,
  o.name as actor_practice, a.details->>'clientId' as client_id, ic.name as client_name, a.details->>'via' as via`;
const ENTRY_JOINS = sql`left join users u on u.id = a.actor_user_id
  left join md_staff st on st.id = u.md_staff_id
  left join md_offices o on o.id = u.md_office_id
  left join integration_clients ic on ic.id::text = a.details->>'clientId'`;

export async function findPatient(db: Executor, tenantId: string, patientId: string) {
  const [row] = await rowsOf<{ id: string; name: string; dob: string; practice: string }>(
    db,
    sql`select p.id, p.first_name || ' ' || p.last_name as name, p.dob::text as dob, o.name as practice
        from patients p join md_offices o on o.id = p.md_office_id
        where p.id = ${patientId} and o.tenant_id = ${tenantId}`,
  );
  return row ?? null;
}

/** Patients of the tenant by name (any order of first and last) or by date of birth (YYYY-MM-DD). */
export async function searchPatients(db: Executor, tenantId: string, terms: { names: string[]; dob: string | null }) {
  const nameConditions = terms.names.map(
    (name) => sql`(lower(p.last_name) like ${`${name.toLowerCase()}%`} or lower(p.first_name) like ${`${name.toLowerCase()}%`})`,
  );
  const conditions = [...nameConditions, ...(terms.dob ? [sql`p.dob = ${terms.dob}::date`] : [])];
  if (conditions.length === 0) return [];
  return rowsOf<{ id: string; name: string; dob: string; practice: string }>(
    db,
    sql`select p.id, p.first_name || ' ' || p.last_name as name, p.dob::text as dob, o.name as practice
        from patients p join md_offices o on o.id = p.md_office_id
        where o.tenant_id = ${tenantId} and o.deleted_at is null and ${sql.join(conditions, sql` and `)}
        order by lower(p.last_name), lower(p.first_name), p.dob limit 25`,
  );
}

export async function patientAccessPage(db: Executor, patientId: string, range: Range, page: number) {
  const offset = (page - 1) * AUDIT_PAGE_SIZE;
  const [records, [count]] = await Promise.all([
    rowsOf<EntryRow>(
      db,
      sql`with s as (
            select audit_id, created_at from audit_subjects
            where patient_id = ${patientId} and created_at >= ${startOf(range)} and created_at < ${endOf(range)}
            order by created_at desc, audit_id desc limit ${AUDIT_PAGE_SIZE} offset ${offset}
          )
          select ${ENTRY_COLUMNS} from s join audit_log a on a.id = s.audit_id ${ENTRY_JOINS}
          order by s.created_at desc, s.audit_id desc`,
    ),
    rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from audit_subjects
          where patient_id = ${patientId} and created_at >= ${startOf(range)} and created_at < ${endOf(range)}`,
    ),
  ]);
  return { records, total: Number(count?.n ?? 0) };
}

export async function findUser(db: Executor, tenantId: string, userId: string) {
  const [row] = await rowsOf<{ id: string; name: string; email: string; role: string; practice: string | null }>(
    db,
    sql`select u.id, u.display_name as name, u.email, coalesce(st.role, u.role) as role, o.name as practice
        from users u left join md_staff st on st.id = u.md_staff_id left join md_offices o on o.id = u.md_office_id
        where u.id = ${userId} and u.tenant_id = ${tenantId}`,
  );
  return row ?? null;
}

export async function listUsers(db: Executor, tenantId: string, search: string) {
  const like = `%${search.toLowerCase().replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}%`;
  return rowsOf<{ id: string; name: string; email: string; role: string; practice: string | null }>(
    db,
    sql`select u.id, u.display_name as name, u.email, coalesce(st.role, u.role) as role, o.name as practice
        from users u left join md_staff st on st.id = u.md_staff_id left join md_offices o on o.id = u.md_office_id
        where u.tenant_id = ${tenantId} and (lower(u.display_name) like ${like} or lower(u.email) like ${like})
        order by lower(u.display_name) limit 50`,
  );
}

/** One user's rows; each with the patients it names, by name only when they are patients of the reviewer's tenant. */
export async function userActivityPage(db: Executor, tenantId: string, userId: string, range: Range, page: number) {
  const offset = (page - 1) * AUDIT_PAGE_SIZE;
  const where = sql`a.actor_user_id = ${userId} and a.created_at >= ${startOf(range)} and a.created_at < ${endOf(range)}`;
  const [records, [count]] = await Promise.all([
    rowsOf<EntryRow>(
      db,
      sql`select ${ENTRY_COLUMNS},
            coalesce((select json_agg(json_build_object('id', s.patient_id,
                'name', case when po.tenant_id = ${tenantId} then p.first_name || ' ' || p.last_name end) order by p.last_name)
              from audit_subjects s join patients p on p.id = s.patient_id join md_offices po on po.id = p.md_office_id
              where s.audit_id = a.id), '[]'::json) as patients
          from audit_log a ${ENTRY_JOINS}
          where ${where}
          order by a.created_at desc, a.id desc limit ${AUDIT_PAGE_SIZE} offset ${offset}`,
    ),
    rowsOf<{ n: number }>(db, sql`select count(*)::int as n from audit_log a where ${where}`),
  ]);
  return { records, total: Number(count?.n ?? 0) };
}

/** Every row of a report for an export (at most `limit`; the caller checked the total first). */
export async function patientAccessAll(db: Executor, patientId: string, range: Range, limit: number) {
  return rowsOf<EntryRow>(
    db,
    sql`select ${ENTRY_COLUMNS} from audit_subjects s join audit_log a on a.id = s.audit_id ${ENTRY_JOINS}
        where s.patient_id = ${patientId} and s.created_at >= ${startOf(range)} and s.created_at < ${endOf(range)}
        order by s.created_at desc, s.audit_id desc limit ${limit}`,
  );
}

export async function userActivityAll(db: Executor, tenantId: string, userId: string, range: Range, limit: number) {
  return rowsOf<EntryRow>(
    db,
    sql`select ${ENTRY_COLUMNS},
          coalesce((select json_agg(json_build_object('id', s.patient_id,
              'name', case when po.tenant_id = ${tenantId} then p.first_name || ' ' || p.last_name end))
            from audit_subjects s join patients p on p.id = s.patient_id join md_offices po on po.id = p.md_office_id
            where s.audit_id = a.id), '[]'::json) as patients
        from audit_log a ${ENTRY_JOINS}
        where a.actor_user_id = ${userId} and a.created_at >= ${startOf(range)} and a.created_at < ${endOf(range)}
        order by a.created_at desc, a.id desc limit ${limit}`,
  );
}

export interface ReviewRow {
  reviewed_by: string | null;
  reviewed_at: Date | string | null;
  note: string | null;
}

const reviewStatusSql = (status: 'open' | 'reviewed' | 'all') =>
  status === 'open' ? sql`r.id is null` : status === 'reviewed' ? sql`r.id is not null` : sql`true`;

export async function supportWindowsPage(
  db: Executor,
  tenantId: string,
  range: Range,
  status: 'open' | 'reviewed' | 'all',
  page: number,
) {
  const where = sql`o.tenant_id = ${tenantId} and g.started_at >= ${startOf(range)} and g.started_at < ${endOf(range)}
    and ${reviewStatusSql(status)}`;
  const from = sql`from support_access_grants g join md_offices o on o.id = g.md_office_id join users u on u.id = g.user_id
    left join audit_reviews r on r.tenant_id = ${tenantId} and r.item_key = 'support:' || g.id::text
    left join users rv on rv.id = r.reviewed_by`;
  const [records, [count]] = await Promise.all([
    rowsOf<
      ReviewRow & {
        id: string;
        user_id: string;
        user_name: string;
        practice: string;
        reason: string;
        started_at: Date | string;
        ended_at: Date | string;
        reads: number;
        patients: number;
      }
    >(
      db,
      sql`select g.id, g.user_id, u.display_name as user_name, o.name as practice, g.reason, g.started_at,
            least(coalesce(g.ended_at, g.expires_at), g.expires_at) as ended_at,
            (select count(*)::int from audit_log a where a.actor_user_id = g.user_id and a.created_at >= g.started_at
               and a.created_at < least(coalesce(g.ended_at, g.expires_at), g.expires_at)) as reads,
            (select count(distinct s.patient_id)::int from audit_log a join audit_subjects s on s.audit_id = a.id
              where a.actor_user_id = g.user_id and a.created_at >= g.started_at
                and a.created_at < least(coalesce(g.ended_at, g.expires_at), g.expires_at)) as patients,
            rv.display_name as reviewed_by, r.reviewed_at, r.note
          ${from} where ${where}
          order by g.started_at desc, g.id limit ${AUDIT_PAGE_SIZE} offset ${(page - 1) * AUDIT_PAGE_SIZE}`,
    ),
    rowsOf<{ n: number }>(db, sql`select count(*)::int as n ${from} where ${where}`),
  ]);
  return { records, total: Number(count?.n ?? 0) };
}

export async function supportWindowOf(db: Executor, tenantId: string, windowId: string) {
  const [row] = await rowsOf<{ id: string; user_id: string }>(
    db,
    sql`select g.id, g.user_id from support_access_grants g join md_offices o on o.id = g.md_office_id
        where g.id = ${windowId} and o.tenant_id = ${tenantId}`,
  );
  return row ?? null;
}

const READS = () => arrayParam([...PATIENT_READ_ACTIONS], 'text');
const RECORD_READS = () => arrayParam([...RECORD_READ_ACTIONS], 'text');

export interface FindingRow extends ReviewRow {
  rule: 'afterHours' | 'manyPatients' | 'noOpenWork';
  actor_id: string;
  actor_name: string;
  actor_practice: string | null;
  first_at: Date | string;
  last_at: Date | string;
  reads: number;
  patients: number;
  patient_id: string | null;
  patient_name: string | null;
  bucket: string;
  /** How many findings of this rule match, of which the newest FINDINGS_PER_RULE are returned. */
  rule_total: number;
}

/** The most findings of one rule a list returns (newest first); the rest are counted. */
export const FINDINGS_PER_RULE = 200;

export interface FindingRules {
  hours: { start: number; end: number };
  many: { patients: number; minutes: number };
  todayIso: string;
}

/**
 * The three unusual-access rules in one statement, set-based: the range's reads of patient data by office users
 * are read once (the time index, then each row's patients by key), grouped per rule, and the rows of "without open
 * work" are taken out by two anti-joins (the reader's changes that day; the patients with a request waiting at the
 * reader's practices) instead of a lookup per read. Findings are filtered by their review, ranked newest first and
 * cut at FINDINGS_PER_RULE per rule, with each rule's total.
 */
export async function unusualAccessFindings(
  db: Executor,
  tenantId: string,
  range: Range,
  rules: FindingRules,
  filter: { status: 'open' | 'reviewed' | 'all'; rule: string | null },
) {
  const seconds = rules.many.minutes * 60;
  return rowsOf<FindingRow>(
    db,
    sql`with reads as materialized (
          select a.id, a.actor_user_id, a.created_at, a.action, s.patient_id,
            (a.created_at at time zone ${range.timeZone}) as local
          from audit_log a
          join users u on u.id = a.actor_user_id and u.tenant_id = ${tenantId} and u.role = 'mdo.user'
          join audit_subjects s on s.audit_id = a.id
          where a.created_at >= ${startOf(range)} and a.created_at < ${endOf(range)} and a.action = any(${READS()})
        ),
        after_hours as (
          select 'afterHours' as rule, actor_user_id as actor_id, local::date::text as bucket, null::uuid as patient_id,
            min(created_at) as first_at, max(created_at) as last_at,
            count(distinct id)::int as reads, count(distinct patient_id)::int as patients
          from reads
          where extract(isodow from local) in (6, 7) or extract(hour from local) < ${rules.hours.start}
             or extract(hour from local) >= ${rules.hours.end}
          group by actor_user_id, local::date
        ),
        many as (
          select 'manyPatients' as rule, actor_user_id as actor_id,
            to_char(to_timestamp(floor(extract(epoch from created_at) / ${seconds}) * ${seconds}) at time zone 'UTC',
              'YYYY-MM-DD"T"HH24:MI"Z"') as bucket, null::uuid as patient_id,
            min(created_at) as first_at, max(created_at) as last_at,
            count(distinct id)::int as reads, count(distinct patient_id)::int as patients
          from reads group by 2, 3 having count(distinct patient_id) >= ${rules.many.patients}
        ),
        record_reads as (
          select actor_user_id, patient_id, local::date as day, min(created_at) as first_at, max(created_at) as last_at,
            count(distinct id)::int as reads
          from reads where action = any(${RECORD_READS()}) group by 1, 2, 3
        ),
        writes as (
          select distinct a.actor_user_id, s.patient_id, (a.created_at at time zone ${range.timeZone})::date as day
          from audit_log a join audit_subjects s on s.audit_id = a.id
          where a.created_at >= ${startOf(range)} and a.created_at < ${endOf(range)}
            and a.actor_user_id in (select distinct actor_user_id from record_reads)
            and a.action <> all(${READS()}) and a.action not like '%.refused'
        ),
        open_work as (
          select distinct rr.actor_user_id, rr.patient_id
          from (select distinct actor_user_id, patient_id from record_reads) rr
          join users ru on ru.id = rr.actor_user_id
          join prescriptions rx on rx.patient_id = rr.patient_id
          join office_members m on m.md_staff_id = ru.md_staff_id and m.md_office_id = rx.md_office_id
          where ${needsActionSql('rx', refillDueSql('rx', rules.todayIso))}
        ),
        no_work as (
          select 'noOpenWork' as rule, r.actor_user_id as actor_id, r.day::text || ':' || r.patient_id::text as bucket,
            r.patient_id, r.first_at, r.last_at, r.reads, 1 as patients
          from record_reads r
          where not exists (select 1 from writes w
                             where w.actor_user_id = r.actor_user_id and w.patient_id = r.patient_id and w.day = r.day)
            and not exists (select 1 from open_work o where o.actor_user_id = r.actor_user_id and o.patient_id = r.patient_id)
        ),
        f as (select * from after_hours union all select * from many union all select * from no_work),
        reviewed as (
          select f.*, r.id as review_id, r.reviewed_by as reviewer_id, r.reviewed_at, r.note
          from f left join audit_reviews r
            on r.tenant_id = ${tenantId} and r.item_key = f.rule || ':' || f.actor_id::text || ':' || f.bucket
          where ${reviewStatusSql(filter.status)} and (${filter.rule}::text is null or f.rule = ${filter.rule})
        ),
        ranked as (
          select reviewed.*, row_number() over (partition by rule order by first_at desc, actor_id, bucket) as n,
            count(*) over (partition by rule)::int as rule_total
          from reviewed
        )
        select k.rule, k.actor_id, k.bucket, k.patient_id, k.first_at, k.last_at, k.reads, k.patients, k.rule_total,
          u.display_name as actor_name, o.name as actor_practice, p.first_name || ' ' || p.last_name as patient_name,
          rv.display_name as reviewed_by, k.reviewed_at, k.note
        from ranked k join users u on u.id = k.actor_id left join md_offices o on o.id = u.md_office_id
          left join patients p on p.id = k.patient_id left join users rv on rv.id = k.reviewer_id
        where k.n <= ${FINDINGS_PER_RULE}
        order by k.first_at desc`,
  );
}

/** A person of the tenant (a finding's subject must be one). */
export async function userInTenant(db: Executor, tenantId: string, userId: string) {
  const [row] = await rowsOf<{ id: string }>(db, sql`select id from users where id = ${userId} and tenant_id = ${tenantId}`);
  return Boolean(row);
}

/** Records the review; false when the item was reviewed already (one review per item). */
export async function insertReview(
  db: Executor,
  review: { tenantId: string; itemKey: string; kind: string; subjectUserId: string; reviewedBy: string; note: string },
) {
  const rows = await rowsOf(
    db,
    sql`insert into audit_reviews (tenant_id, item_key, kind, subject_user_id, reviewed_by, note)
        values (${review.tenantId}, ${review.itemKey}, ${review.kind}, ${review.subjectUserId}, ${review.reviewedBy}, ${review.note})
        on conflict (tenant_id, item_key) do nothing returning id`,
  );
  return rows.length === 1;
}

export async function privacyOfficers(db: Executor, tenantId: string) {
  return rowsOf<{ id: string; name: string; email: string; privacy_officer: boolean }>(
    db,
    sql`select id, display_name as name, email, privacy_officer from users
        where tenant_id = ${tenantId} and role = 'provider.admin' and disabled_at is null order by lower(display_name)`,
  );
}

/** Sets the permission on a provider admin of the tenant; false when the user is not one. */
export async function setPrivacyOfficer(db: Executor, tenantId: string, userId: string, value: boolean) {
  const rows = await rowsOf(
    db,
    sql`update users set privacy_officer = ${value}
        where id = ${userId} and tenant_id = ${tenantId} and role = 'provider.admin' and disabled_at is null returning id`,
  );
  return rows.length === 1;
}
