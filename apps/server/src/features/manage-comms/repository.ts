/** SQL of Manage Communications: practices (md_offices), HCPs and staff (md_staff) and their links. */
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mdOffices, mdStaff, officeMembers, supportAccessGrants, users } from '../../db/schema.ts';
import { practiceScopeSql } from '../../lib/office-scope.ts';
import { needsActionSql } from '../../lib/prescription-sql.ts';
import { likeEscape } from '../../lib/sql-like.ts';

export type OfficeRow = typeof mdOffices.$inferSelect;
export type StaffRow = typeof mdStaff.$inferSelect;
export type OfficeWrite = Partial<typeof mdOffices.$inferInsert>;
export type StaffWrite = Partial<typeof mdStaff.$inferInsert>;
export type StaffInsert = typeof mdStaff.$inferInsert;
export type OfficeInsert = typeof mdOffices.$inferInsert;

const containsPattern = (text: string) => `%${likeEscape(text.toLowerCase())}%`;

/** A practice matches by its name, or by the name or NPI of one of its active HCPs. */
function officeMatchSql(searchText: string): SQL {
  if (!searchText) return sql`true`;
  const like = containsPattern(searchText);
  const digits = searchText.replace(/\D/g, '');
  const npiMatch = digits.length >= 3 && digits.length === searchText.trim().length ? sql`or s.npi like ${`${digits}%`}` : sql``;
  return sql`(lower(o.name) like ${like} or exists (
    select 1 from office_members m join md_staff s on s.id = m.md_staff_id
    where m.md_office_id = o.id and s.deleted_at is null
      and (lower(s.first_name || ' ' || s.last_name) like ${like} ${npiMatch})))`;
}

export interface OfficeListRow {
  id: string;
  name: string;
  city: string | null;
  state: string | null;
  phone: string | null;
  email: string | null;
  is_key_account: boolean;
  not_onboarded: boolean;
  total: number;
}

export async function searchOffices(
  db: Executor,
  input: { tenantId: string; searchText: string; offset: number; limit: number },
): Promise<{ rows: OfficeListRow[]; total: number }> {
  const result = (await db.execute(sql`
    with matches as (
      select o.id, o.name, o.city, o.state, o.phone, o.email, o.is_key_account, o.not_onboarded
      from md_offices o
      where o.tenant_id = ${input.tenantId} and o.deleted_at is null and ${officeMatchSql(input.searchText)}
    )
    select m.*, (select count(*)::int from matches) as total
    from matches m order by lower(m.name), m.id limit ${input.limit} offset ${input.offset}`)) as unknown as {
    rows: OfficeListRow[];
  };
  if (result.rows.length > 0) return { rows: result.rows, total: result.rows[0]?.total ?? 0 };
  // An offset past the end still reports how many there are, so the screen can go back to a valid page.
  const counted = (await db.execute(sql`select count(*)::int as total from md_offices o
    where o.tenant_id = ${input.tenantId} and o.deleted_at is null and ${officeMatchSql(input.searchText)}`)) as unknown as {
    rows: { total: number }[];
  };
  return { rows: [], total: counted.rows[0]?.total ?? 0 };
}

/** A practice of the tenant; with `scopeUserId`, only when it is one of that office user's practices. */
export async function findOffice(
  db: Executor,
  input: { tenantId: string; officeId: string; scopeUserId?: string },
): Promise<OfficeRow | null> {
  const conditions = [eq(mdOffices.id, input.officeId), eq(mdOffices.tenantId, input.tenantId), isNull(mdOffices.deletedAt)];
  if (input.scopeUserId) conditions.push(sql`${mdOffices.id} in (${practiceScopeSql(input.scopeUserId)})`);
  const rows = await db
    .select()
    .from(mdOffices)
    .where(and(...conditions))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertOffice(db: Executor, values: typeof mdOffices.$inferInsert): Promise<OfficeRow> {
  const [row] = await db.insert(mdOffices).values(values).returning();
  return row as OfficeRow;
}

export async function updateOffice(db: Executor, officeId: string, values: OfficeWrite): Promise<OfficeRow> {
  const [row] = await db
    .update(mdOffices)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(mdOffices.id, officeId))
    .returning();
  return row as OfficeRow;
}

/** Prescriptions of the practice that still wait for the office (any action category, postponed refills included). */
export async function countOpenPrescriptionsOfOffice(db: Executor, officeId: string): Promise<number> {
  const result = (await db.execute(sql`select count(*)::int as n from prescriptions rx
    where rx.md_office_id = ${officeId} and ${needsActionSql('rx', sql`rx.needs_refill_auth`)}`)) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n ?? 0;
}

export async function countOpenPrescriptionsOfStaff(db: Executor, staffId: string, officeId?: string): Promise<number> {
  const inOffice = officeId ? sql`and rx.md_office_id = ${officeId}` : sql``;
  const result = (await db.execute(sql`select count(*)::int as n from prescriptions rx
    where rx.prescriber_id = ${staffId} ${inOffice} and ${needsActionSql('rx', sql`rx.needs_refill_auth`)}`)) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n ?? 0;
}

export async function countActiveUsersOfOffice(db: Executor, officeId: string): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as n from users where md_office_id = ${officeId} and disabled_at is null`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]?.n ?? 0;
}

export interface StaffListRow {
  id: string;
  first_name: string;
  last_name: string;
  role: string;
  npi: string | null;
  specialty: string | null;
  email: string | null;
  phone: string | null;
  practice_names: string[] | null;
  total: number;
}

const staffListColumns = sql`s.id, s.first_name, s.last_name, s.role, s.npi, s.specialty, s.email, s.phone,
  (select array_agg(o.name order by lower(o.name)) from office_members m join md_offices o on o.id = m.md_office_id
   where m.md_staff_id = s.id and o.deleted_at is null) as practice_names`;

/** HCPs and staff by name, NPI or practice name. */
export async function searchStaff(
  db: Executor,
  input: { tenantId: string; searchText: string; offset: number; limit: number },
): Promise<{ rows: StaffListRow[]; total: number }> {
  const like = containsPattern(input.searchText);
  const digits = input.searchText.replace(/\D/g, '');
  const match = input.searchText
    ? sql`(lower(s.first_name || ' ' || s.last_name) like ${like}
        ${digits.length >= 3 && digits.length === input.searchText.length ? sql`or s.npi like ${`${digits}%`}` : sql``}
        or exists (select 1 from office_members m join md_offices o on o.id = m.md_office_id
          where m.md_staff_id = s.id and o.deleted_at is null and lower(o.name) like ${like}))`
    : sql`true`;
  const where = sql`s.tenant_id = ${input.tenantId} and s.deleted_at is null and ${match}`;
  const result = (await db.execute(sql`
    select ${staffListColumns}, count(*) over ()::int as total
    from md_staff s where ${where}
    order by lower(s.last_name), lower(s.first_name), s.id limit ${input.limit} offset ${input.offset}`)) as unknown as {
    rows: StaffListRow[];
  };
  if (result.rows.length > 0 || input.offset === 0) return { rows: result.rows, total: result.rows[0]?.total ?? 0 };
  const counted = (await db.execute(sql`select count(*)::int as total from md_staff s where ${where}`)) as unknown as {
    rows: { total: number }[];
  };
  return { rows: [], total: counted.rows[0]?.total ?? 0 };
}

export async function listOfficeStaff(db: Executor, officeId: string): Promise<StaffListRow[]> {
  const result = (await db.execute(sql`
    select ${staffListColumns}, 0 as total
    from md_staff s join office_members mm on mm.md_staff_id = s.id and mm.md_office_id = ${officeId}
    where s.deleted_at is null
    order by case when s.role = 'STAFF' then 1 else 0 end, lower(s.last_name), lower(s.first_name), s.id`)) as unknown as {
    rows: StaffListRow[];
  };
  return result.rows;
}

export async function findStaff(db: Executor, tenantId: string, staffId: string): Promise<StaffRow | null> {
  const rows = await db
    .select()
    .from(mdStaff)
    .where(and(eq(mdStaff.id, staffId), eq(mdStaff.tenantId, tenantId), isNull(mdStaff.deletedAt)))
    .limit(1);
  return rows[0] ?? null;
}

export async function practicesOfStaff(db: Executor, staffId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: mdOffices.id, name: mdOffices.name })
    .from(officeMembers)
    .innerJoin(mdOffices, eq(mdOffices.id, officeMembers.mdOfficeId))
    .where(and(eq(officeMembers.mdStaffId, staffId), isNull(mdOffices.deletedAt)))
    .orderBy(asc(sql`lower(${mdOffices.name})`));
}

export async function hasPortalAccount(db: Executor, staffId: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.mdStaffId, staffId)).limit(1);
  return rows.length > 0;
}

export async function findStaffByNpi(db: Executor, tenantId: string, npi: string): Promise<{ id: string } | null> {
  const rows = await db
    .select({ id: mdStaff.id })
    .from(mdStaff)
    .where(and(eq(mdStaff.tenantId, tenantId), eq(mdStaff.npi, npi), isNull(mdStaff.deletedAt)))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertStaff(db: Executor, values: typeof mdStaff.$inferInsert): Promise<StaffRow> {
  const [row] = await db.insert(mdStaff).values(values).returning();
  return row as StaffRow;
}

export async function updateStaff(db: Executor, staffId: string, values: StaffWrite): Promise<StaffRow> {
  const [row] = await db
    .update(mdStaff)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(mdStaff.id, staffId))
    .returning();
  return row as StaffRow;
}

/** Links a person to a practice; linking twice is a no-op. Returns whether a link was added. */
export async function linkStaff(db: Executor, officeId: string, staffId: string): Promise<boolean> {
  const rows = await db
    .insert(officeMembers)
    .values({ mdOfficeId: officeId, mdStaffId: staffId })
    .onConflictDoNothing()
    .returning({ id: officeMembers.mdStaffId });
  return rows.length > 0;
}

export async function unlinkStaff(db: Executor, officeId: string, staffId: string): Promise<boolean> {
  const rows = await db
    .delete(officeMembers)
    .where(and(eq(officeMembers.mdOfficeId, officeId), eq(officeMembers.mdStaffId, staffId)))
    .returning({ id: officeMembers.mdStaffId });
  return rows.length > 0;
}

/**
 * The portal accounts of an HCP or staff member taken off a practice: an account whose home practice it was loses
 * that link too (else it would still reach the practice through it). They lose their sessions (the caller ends them).
 */
export async function detachAccountsOfStaff(db: Executor, staffId: string, officeId: string): Promise<string[]> {
  await db
    .update(users)
    .set({ mdOfficeId: null, updatedAt: new Date() })
    .where(and(eq(users.mdStaffId, staffId), eq(users.mdOfficeId, officeId)));
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.mdStaffId, staffId));
  return rows.map((r) => r.id);
}

/** Ends a user's open support windows on one practice (its sales representative was changed). */
export async function endSupportWindows(db: Executor, userId: string, officeId: string, at: Date): Promise<void> {
  await db
    .update(supportAccessGrants)
    .set({ endedAt: at })
    .where(
      and(
        eq(supportAccessGrants.userId, userId),
        eq(supportAccessGrants.mdOfficeId, officeId),
        isNull(supportAccessGrants.endedAt),
      ),
    );
}

export async function salesUsers(db: Executor, tenantId: string) {
  return db
    .select({ id: users.id, name: users.displayName, email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, 'provider.sales'), isNull(users.disabledAt)))
    .orderBy(asc(sql`lower(${users.displayName})`));
}

export async function isSalesUserOfTenant(db: Executor, tenantId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId), eq(users.role, 'provider.sales'), isNull(users.disabledAt)))
    .limit(1);
  return rows.length > 0;
}

/** The practices in a user's office scope (decision 0010), by name. */
export async function practicesInScope(db: Executor, userId: string, limit: number): Promise<OfficeRow[]> {
  return db
    .select()
    .from(mdOffices)
    .where(sql`${mdOffices.id} in (${practiceScopeSql(userId)})`)
    .orderBy(asc(sql`lower(${mdOffices.name})`))
    .limit(limit);
}
