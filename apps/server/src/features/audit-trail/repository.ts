/**
 * The audit trail's SQL (issue 49): report pages read audit_subjects (a patient's rows) or the actor's index, one
 * page of 50 newest first; every date range is whole days in the reports' time zone. Only the caller's tenant is
 * read: a patient, a user, a window of another tenant is never found.
 */
import { AUDIT_PAGE_SIZE } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client.ts';
import { endOf, startOf, type ZoneDays } from '../../db/zone-days.ts';

export type Range = ZoneDays;

export interface Reviewer {
  userId: string;
  tenantId: string;
  name: string;
}

/** The caller when they are a privacy officer of their tenant (an enabled provider admin), else nothing. */
export async function reviewerOf(db: Executor, userId: string): Promise<Reviewer | null> {
  const [row] = await selectRows<{ id: string; tenant_id: string; display_name: string }>(
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
  const [row] = await selectRows<{ id: string; name: string; dob: string; practice: string }>(
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
  return selectRows<{ id: string; name: string; dob: string; practice: string }>(
    db,
    sql`select p.id, p.first_name || ' ' || p.last_name as name, p.dob::text as dob, o.name as practice
        from patients p join md_offices o on o.id = p.md_office_id
        where o.tenant_id = ${tenantId} and o.deleted_at is null and ${sql.join(conditions, sql` and `)}
        order by lower(p.last_name), lower(p.first_name), p.dob limit 25`,
  );
}

export async function patientAccessPage(db: Executor, patientId: string, range: Range, page: number) {
  const offset = (page - 1) * AUDIT_PAGE_SIZE;
  const [records, total] = await Promise.all([
    selectRows<EntryRow>(
      db,
      sql`with s as (
            select audit_id, created_at from audit_subjects
            where patient_id = ${patientId} and created_at >= ${startOf(range)} and created_at < ${endOf(range)}
            order by created_at desc, audit_id desc limit ${AUDIT_PAGE_SIZE} offset ${offset}
          )
          select ${ENTRY_COLUMNS} from s join audit_log a on a.id = s.audit_id ${ENTRY_JOINS}
          order by s.created_at desc, s.audit_id desc`,
    ),
    patientAccessCount(db, patientId, range),
  ]);
  return { records, total };
}

/** How many rows a patient's report holds in the range (an export is refused above its cap before reading them). */
export async function patientAccessCount(db: Executor, patientId: string, range: Range) {
  const [count] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from audit_subjects
        where patient_id = ${patientId} and created_at >= ${startOf(range)} and created_at < ${endOf(range)}`,
  );
  return Number(count?.n ?? 0);
}

export async function findUser(db: Executor, tenantId: string, userId: string) {
  const [row] = await selectRows<{ id: string; name: string; email: string; role: string; practice: string | null }>(
    db,
    sql`select u.id, u.display_name as name, u.email, coalesce(st.role, u.role) as role, o.name as practice
        from users u left join md_staff st on st.id = u.md_staff_id left join md_offices o on o.id = u.md_office_id
        where u.id = ${userId} and u.tenant_id = ${tenantId}`,
  );
  return row ?? null;
}

export async function listUsers(db: Executor, tenantId: string, search: string) {
  const like = `%${search.toLowerCase().replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}%`;
  return selectRows<{ id: string; name: string; email: string; role: string; practice: string | null }>(
    db,
    sql`select u.id, u.display_name as name, u.email, coalesce(st.role, u.role) as role, o.name as practice
        from users u left join md_staff st on st.id = u.md_staff_id left join md_offices o on o.id = u.md_office_id
        where u.tenant_id = ${tenantId} and (lower(u.display_name) like ${like} or lower(u.email) like ${like})
        order by lower(u.display_name) limit 50`,
  );
}

const userActivityWhere = (userId: string, range: Range) =>
  sql`a.actor_user_id = ${userId} and a.created_at >= ${startOf(range)} and a.created_at < ${endOf(range)}`;

/** One user's rows; each with the patients it names, by name only when they are patients of the reviewer's tenant. */
export async function userActivityPage(db: Executor, tenantId: string, userId: string, range: Range, page: number) {
  const offset = (page - 1) * AUDIT_PAGE_SIZE;
  const where = userActivityWhere(userId, range);
  const [records, total] = await Promise.all([
    selectRows<EntryRow>(
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
    userActivityCount(db, userId, range),
  ]);
  return { records, total };
}

/** How many rows a person's report holds in the range. */
export async function userActivityCount(db: Executor, userId: string, range: Range) {
  const [count] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from audit_log a where ${userActivityWhere(userId, range)}`,
  );
  return Number(count?.n ?? 0);
}

/** Every row of a report for an export (at most `limit`; the caller checked the total first). */
export async function patientAccessAll(db: Executor, patientId: string, range: Range, limit: number) {
  return selectRows<EntryRow>(
    db,
    sql`select ${ENTRY_COLUMNS} from audit_subjects s join audit_log a on a.id = s.audit_id ${ENTRY_JOINS}
        where s.patient_id = ${patientId} and s.created_at >= ${startOf(range)} and s.created_at < ${endOf(range)}
        order by s.created_at desc, s.audit_id desc limit ${limit}`,
  );
}

export async function userActivityAll(db: Executor, tenantId: string, userId: string, range: Range, limit: number) {
  return selectRows<EntryRow>(
    db,
    sql`select ${ENTRY_COLUMNS},
          coalesce((select json_agg(json_build_object('id', s.patient_id,
              'name', case when po.tenant_id = ${tenantId} then p.first_name || ' ' || p.last_name end))
            from audit_subjects s join patients p on p.id = s.patient_id join md_offices po on po.id = p.md_office_id
            where s.audit_id = a.id), '[]'::json) as patients
        from audit_log a ${ENTRY_JOINS}
        where ${userActivityWhere(userId, range)}
        order by a.created_at desc, a.id desc limit ${limit}`,
  );
}

export interface ReviewRow {
  reviewed_by: string | null;
  reviewed_at: Date | string | null;
  note: string | null;
}

export const reviewStatusSql = (status: 'open' | 'reviewed' | 'all') =>
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
    selectRows<
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
    selectRows<{ n: number }>(db, sql`select count(*)::int as n ${from} where ${where}`),
  ]);
  return { records, total: Number(count?.n ?? 0) };
}

export async function supportWindowOf(db: Executor, tenantId: string, windowId: string) {
  const [row] = await selectRows<{ id: string; user_id: string }>(
    db,
    sql`select g.id, g.user_id from support_access_grants g join md_offices o on o.id = g.md_office_id
        where g.id = ${windowId} and o.tenant_id = ${tenantId}`,
  );
  return row ?? null;
}

/** A person of the tenant (a finding's subject must be one). */
export async function userInTenant(db: Executor, tenantId: string, userId: string) {
  const [row] = await selectRows<{ id: string }>(db, sql`select id from users where id = ${userId} and tenant_id = ${tenantId}`);
  return Boolean(row);
}

/** Records the review; false when the item was reviewed already (one review per item). */
export async function insertReview(
  db: Executor,
  review: { tenantId: string; itemKey: string; kind: string; subjectUserId: string; reviewedBy: string; note: string },
) {
  const rows = await selectRows(
    db,
    sql`insert into audit_reviews (tenant_id, item_key, kind, subject_user_id, reviewed_by, note)
        values (${review.tenantId}, ${review.itemKey}, ${review.kind}, ${review.subjectUserId}, ${review.reviewedBy}, ${review.note})
        on conflict (tenant_id, item_key) do nothing returning id`,
  );
  return rows.length === 1;
}

export async function privacyOfficers(db: Executor, tenantId: string) {
  return selectRows<{ id: string; name: string; email: string; privacy_officer: boolean }>(
    db,
    sql`select id, display_name as name, email, privacy_officer from users
        where tenant_id = ${tenantId} and role = 'provider.admin' and disabled_at is null order by lower(display_name)`,
  );
}

/** Sets the permission on a provider admin of the tenant; false when the user is not one. */
export async function setPrivacyOfficer(db: Executor, tenantId: string, userId: string, value: boolean) {
  const rows = await selectRows(
    db,
    sql`update users set privacy_officer = ${value}
        where id = ${userId} and tenant_id = ${tenantId} and role = 'provider.admin' and disabled_at is null returning id`,
  );
  return rows.length === 1;
}
