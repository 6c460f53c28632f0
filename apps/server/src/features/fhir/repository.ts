/** SQL of the FHIR read side: one tenant's practices and HCPs, never deleted ones. */
import { idSchema } from '@hcp/contract';
import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mdOffices, mdStaff, officeMembers } from '../../db/schema.ts';
import type { PracticeRow, StaffRow } from './mapping/directory.ts';

const practiceColumns = {
  id: mdOffices.id,
  name: mdOffices.name,
  address1: mdOffices.address1,
  address2: mdOffices.address2,
  city: mdOffices.city,
  state: mdOffices.state,
  zip: mdOffices.zip,
  phone: mdOffices.phone,
  fax: mdOffices.fax,
  email: mdOffices.email,
  updatedAt: mdOffices.updatedAt,
};
const staffColumns = {
  id: mdStaff.id,
  firstName: mdStaff.firstName,
  lastName: mdStaff.lastName,
  npi: mdStaff.npi,
  role: mdStaff.role,
  specialty: mdStaff.specialty,
  phone: mdStaff.phone,
  fax: mdStaff.fax,
  email: mdStaff.email,
  updatedAt: mdStaff.updatedAt,
};

export interface Page {
  count: number;
  offset: number;
}
export const NONE = { rows: [], total: 0 };
/** Our ids are UUIDs: any other id names nothing (and never reaches a uuid column). */
export const isId = (value: string) => idSchema.safeParse(value).success;
/** One row by id (a read, a lock, a read-back). */
export const ONE: Page = { count: 1, offset: 0 };

/** One tenant's practices, all or by id. */
export async function practices(db: Executor, tenantId: string, filter: { id?: string; ids?: string[] }, page: Page) {
  if (filter.id !== undefined && !isId(filter.id)) return NONE;
  const ids = filter.ids?.filter(isId);
  if (ids?.length === 0) return NONE;
  const byId = filter.id !== undefined ? eq(mdOffices.id, filter.id) : undefined;
  const byIds = ids ? inArray(mdOffices.id, ids) : undefined;
  const condition = and(eq(mdOffices.tenantId, tenantId), isNull(mdOffices.deletedAt), byId, byIds);
  const [rows, [total]] = await Promise.all([
    db
      .select(practiceColumns)
      .from(mdOffices)
      .where(condition)
      .orderBy(asc(mdOffices.name), asc(mdOffices.id))
      .limit(page.count)
      .offset(page.offset),
    db.select({ n: count() }).from(mdOffices).where(condition),
  ]);
  return { rows: rows as PracticeRow[], total: total?.n ?? 0 };
}

/** One tenant's HCPs, all, by id or by NPI. */
export async function practitioners(
  db: Executor,
  tenantId: string,
  filter: { id?: string; ids?: string[]; npi?: string },
  page: Page,
) {
  if (filter.id !== undefined && !isId(filter.id)) return NONE;
  const ids = filter.ids?.filter(isId);
  if (ids?.length === 0) return NONE;
  const byId = filter.id !== undefined ? eq(mdStaff.id, filter.id) : undefined;
  const byIds = ids ? inArray(mdStaff.id, ids) : undefined;
  const byNpi = filter.npi !== undefined ? eq(mdStaff.npi, filter.npi) : undefined;
  const condition = and(eq(mdStaff.tenantId, tenantId), isNull(mdStaff.deletedAt), byId, byIds, byNpi);
  const [rows, [total]] = await Promise.all([
    db
      .select(staffColumns)
      .from(mdStaff)
      .where(condition)
      .orderBy(asc(mdStaff.lastName), asc(mdStaff.firstName), asc(mdStaff.id))
      .limit(page.count)
      .offset(page.offset),
    db.select({ n: count() }).from(mdStaff).where(condition),
  ]);
  return { rows: rows as StaffRow[], total: total?.n ?? 0 };
}

/** Who works at which of the tenant's practices (PractitionerRole), by practice or by HCP. */
export async function practitionerRoles(
  db: Executor,
  tenantId: string,
  filter: { practiceId?: string; staffId?: string },
  page: Page,
) {
  if ((filter.practiceId !== undefined && !isId(filter.practiceId)) || (filter.staffId !== undefined && !isId(filter.staffId))) {
    return NONE;
  }
  const condition = and(
    eq(mdOffices.tenantId, tenantId),
    isNull(mdOffices.deletedAt),
    isNull(mdStaff.deletedAt),
    filter.practiceId !== undefined ? eq(officeMembers.mdOfficeId, filter.practiceId) : undefined,
    filter.staffId !== undefined ? eq(officeMembers.mdStaffId, filter.staffId) : undefined,
  );
  const from = () =>
    db
      .select({ practiceId: officeMembers.mdOfficeId, staffId: officeMembers.mdStaffId, role: mdStaff.role, npi: mdStaff.npi })
      .from(officeMembers)
      .innerJoin(mdOffices, eq(mdOffices.id, officeMembers.mdOfficeId))
      .innerJoin(mdStaff, eq(mdStaff.id, officeMembers.mdStaffId))
      .where(condition);
  const [rows, [total]] = await Promise.all([
    from().orderBy(asc(officeMembers.mdOfficeId), asc(officeMembers.mdStaffId)).limit(page.count).offset(page.offset),
    db
      .select({ n: count() })
      .from(officeMembers)
      .innerJoin(mdOffices, eq(mdOffices.id, officeMembers.mdOfficeId))
      .innerJoin(mdStaff, eq(mdStaff.id, officeMembers.mdStaffId))
      .where(condition),
  ]);
  return { rows, total: total?.n ?? 0 };
}
