/**
 * Which practices a user reaches, as SQL subqueries every feature reuses, so the answer lives in one place
 * (docs/decisions/0010-office-scope.md, refined by 0020-minimum-necessary-access.md):
 *
 * - `practiceScopeSql`: the practices a user works with, for practice-level screens and counts (no patient
 *   data): an office user's own practices; the sales user's assigned practices; the admin's whole tenant.
 * - `patientScopeSql`: the practices whose patients a user may see. Only the practice's own people, plus a
 *   provider user inside an open support-access window on that one practice (read-only: writes are refused
 *   by `assertMayAct`).
 *
 * Always within the user's tenant, never deleted practices, nothing for a disabled user.
 */
import {
  CLINICAL_REFUSALS,
  type ClinicalAccess,
  clinicalAccess,
  mayChangePatientData,
  mayTakeAction,
  type PrescriptionAction,
} from '@hcp/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { patients } from '../db/schema.ts';
import { AppError } from './errors.ts';

const officeUserOwns = sql`(o.id = u.md_office_id or exists (
  select 1 from office_members m where m.md_office_id = o.id and m.md_staff_id = u.md_staff_id))`;

export function practiceScopeSql(userId: string): SQL {
  return sql`select o.id from md_offices o join users u on u.id = ${userId}
    where u.disabled_at is null and o.tenant_id = u.tenant_id and o.deleted_at is null and (
      u.role = 'provider.admin'
      or (u.role = 'provider.sales' and o.sales_user_id = u.id)
      or (u.role = 'mdo.user' and ${officeUserOwns})
    )`;
}

/**
 * The practices a user works with or manages, the widest practice-level reach (lib/reach/resolvers.ts): an office
 * user's own practices; the provider's users manage every practice of their tenant (decision 0015).
 */
export function practiceReachSql(userId: string): SQL {
  return sql`select o.id from md_offices o join users u on u.id = ${userId}
    where u.disabled_at is null and o.tenant_id = u.tenant_id and o.deleted_at is null and (
      u.role in ('provider.admin', 'provider.sales') or (u.role = 'mdo.user' and ${officeUserOwns})
    )`;
}

export function patientScopeSql(userId: string): SQL {
  // Driven from the user's own links (their practice, memberships, open support grants), never a scan of the
  // tenant's practices: one or two practices however many the tenant has (bench:growth, docs/performance.md).
  return sql`select o.id from users u
    cross join lateral (
      select u.md_office_id as id where u.role = 'mdo.user'
      union all
      select m.md_office_id from office_members m where u.role = 'mdo.user' and m.md_staff_id = u.md_staff_id
      union all
      select g.md_office_id from support_access_grants g
        where u.role in ('provider.admin', 'provider.sales') and g.user_id = u.id and g.ended_at is null
          and g.expires_at > statement_timestamp()
    ) linked
    join md_offices o on o.id = linked.id
    where u.id = ${userId} and u.disabled_at is null and o.tenant_id = u.tenant_id and o.deleted_at is null`;
}

/** A patient, only when they belong to one of the user's practices (else null: the caller answers 404). */
export async function findPatientInScope(db: Executor, userId: string, patientId: string) {
  const rows = await db
    .select({ id: patients.id, mdOfficeId: patients.mdOfficeId })
    .from(patients)
    .where(and(eq(patients.id, patientId), sql`${patients.mdOfficeId} in (${patientScopeSql(userId)})`))
    .limit(1);
  return rows[0] ?? null;
}

/** The ids of the practices whose patients the user may see (patientScopeSql, read once). */
export async function practicesWithPatientAccess(db: Executor, userId: string): Promise<string[]> {
  const result = (await db.execute(sql`select id from md_offices where id in (${patientScopeSql(userId)})`)) as unknown as {
    rows: { id: string }[];
  };
  return result.rows.map((r) => r.id);
}

/** The user's clinical access (contract rule) read from their account, their HCP record and open windows. */
export async function clinicalAccessOf(db: Executor, userId: string): Promise<ClinicalAccess> {
  const result = (await db.execute(sql`select u.role, u.user_type as "userType", s.role as "staffRole",
      exists (select 1 from support_access_grants g where g.user_id = u.id and g.ended_at is null
        and g.expires_at > statement_timestamp()) as "supportAccessActive"
    from users u left join md_staff s on s.id = u.md_staff_id
    where u.id = ${userId} and u.disabled_at is null`)) as unknown as {
    rows: { role: string; userType: string; staffRole: string | null; supportAccessActive: boolean }[];
  };
  const row = result.rows[0];
  if (!row) return 'none';
  return clinicalAccess(
    { role: row.role, mdOfficeUser: { userType: row.userType, role: row.staffRole } },
    { supportAccessActive: row.supportAccessActive },
  );
}

/**
 * Refuses a write on patient data the user can see but may not change: 403 with the reason (a support-access
 * window is read-only; a signature action needs a prescriber). Call it after the scope check, so anything
 * outside the user's reach is still 404.
 */
export async function assertMayAct(db: Executor, userId: string, action: PrescriptionAction | 'officeWrite'): Promise<void> {
  const access = await clinicalAccessOf(db, userId);
  if (!mayChangePatientData(access)) throw new AppError('FORBIDDEN', CLINICAL_REFUSALS.readOnly);
  if (action !== 'officeWrite' && !mayTakeAction(access, action)) {
    throw new AppError('FORBIDDEN', CLINICAL_REFUSALS.needsPrescriber);
  }
}
