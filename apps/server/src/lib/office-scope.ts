/**
 * The offices a user acts for (docs/decisions/0010-office-scope.md), as one SQL subquery every feature
 * reuses so "which patients may this user see" is answered in one place:
 * - an office user (mdo.user): their own office, plus every office their HCP record belongs to;
 * - the provider's sales user: the offices assigned to them;
 * - the provider's admin: every office of their tenant.
 * Always within the user's tenant, never deleted offices, never for a disabled user.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { patients } from '../db/schema.ts';

export function officeScopeSql(userId: string): SQL {
  return sql`select o.id from md_offices o join users u on u.id = ${userId}
    where u.disabled_at is null and o.tenant_id = u.tenant_id and o.deleted_at is null and (
      u.role = 'provider.admin'
      or (u.role = 'provider.sales' and o.sales_user_id = u.id)
      or (u.role = 'mdo.user' and (o.id = u.md_office_id or exists (
        select 1 from office_members m where m.md_office_id = o.id and m.md_staff_id = u.md_staff_id)))
    )`;
}

/** A patient, only when they belong to one of the user's offices (else null: the caller answers 404). */
export async function findPatientInScope(db: Executor, userId: string, patientId: string) {
  const rows = await db
    .select({ id: patients.id, mdOfficeId: patients.mdOfficeId })
    .from(patients)
    .where(and(eq(patients.id, patientId), sql`${patients.mdOfficeId} in (${officeScopeSql(userId)})`))
    .limit(1);
  return rows[0] ?? null;
}
