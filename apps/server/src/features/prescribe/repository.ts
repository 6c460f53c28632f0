/** SQL of Prescribe Rx: the catalogue, the prescriber, patients in scope, the new prescription and drafts. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { drugProducts, mdOffices, mdStaff, patients, prescriptionDrafts, prescriptions, users } from '../../db/schema.ts';
import { patientScopeSql } from '../../lib/office-scope.ts';
import { likeEscape } from '../../lib/sql-like.ts';

/** Products by name (anywhere in it) or NDC (its start, dashes optional). */
export async function searchCatalogue(db: Executor, searchText: string, limit: number) {
  const text = searchText.trim().toLowerCase();
  const digits = text.replace(/[^\d]/g, '');
  const byNdc = digits.length >= 3 ? sql`or replace(${drugProducts.ndc}, '-', '') like ${`${digits}%`}` : sql``;
  return db
    .select({
      id: drugProducts.id,
      ndc: drugProducts.ndc,
      name: drugProducts.name,
      strength: drugProducts.strength,
      form: drugProducts.form,
      manufacturer: drugProducts.manufacturer,
      isControlled: drugProducts.isControlled,
    })
    .from(drugProducts)
    .where(sql`(lower(${drugProducts.name}) like ${`%${likeEscape(text)}%`} ${byNdc})`)
    .orderBy(asc(sql`lower(${drugProducts.name})`), asc(drugProducts.strength))
    .limit(limit);
}

export async function findProduct(db: Executor, productId: string) {
  const rows = await db.select().from(drugProducts).where(eq(drugProducts.id, productId)).limit(1);
  return rows[0] ?? null;
}

/** The signed-in user as a prescriber: their practice role, HCP record, office and its prescribing preferences. */
export async function findPrescriber(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: users.id,
      role: users.role,
      userType: users.userType,
      displayName: users.displayName,
      mdStaffId: users.mdStaffId,
      staffRole: mdStaff.role,
      staffNpi: mdStaff.npi,
      officeId: mdOffices.id,
      prescribeVia: mdOffices.prescribeVia,
      prescribingEnabled: mdOffices.prescribingEnabled,
      fax: mdOffices.fax,
    })
    .from(users)
    .leftJoin(mdStaff, eq(mdStaff.id, users.mdStaffId))
    .leftJoin(mdOffices, eq(mdOffices.id, users.mdOfficeId))
    .where(and(eq(users.id, userId), sql`${users.disabledAt} is null`))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertPatient(db: Executor, values: typeof patients.$inferInsert): Promise<string> {
  const [row] = await db.insert(patients).values(values).returning({ id: patients.id });
  return (row as { id: string }).id;
}

export async function insertPrescription(db: Executor, values: typeof prescriptions.$inferInsert): Promise<string> {
  const [row] = await db.insert(prescriptions).values(values).returning({ id: prescriptions.id });
  return (row as { id: string }).id;
}

export async function readDraft(db: Executor, userId: string) {
  const rows = await db.select().from(prescriptionDrafts).where(eq(prescriptionDrafts.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function writeDraft(db: Executor, userId: string, payload: Record<string, unknown>) {
  const [row] = await db
    .insert(prescriptionDrafts)
    .values({ userId, payload })
    .onConflictDoUpdate({ target: prescriptionDrafts.userId, set: { payload, updatedAt: sql`now()` } })
    .returning();
  return row;
}

export async function deleteDraft(db: Executor, userId: string) {
  await db.delete(prescriptionDrafts).where(eq(prescriptionDrafts.userId, userId));
}

/** What an EPCS signature shows of a patient of the prescriber's practices (name, birth date, address); null outside. */
export async function patientForSigning(db: Executor, userId: string, patientId: string) {
  const [row] = (
    (await db.execute(sql`
    select p.id, p.md_office_id as "mdOfficeId", trim(p.first_name || ' ' || p.last_name) as name, p.dob::text as dob,
      concat_ws(', ', p.address1, p.city, concat_ws(' ', p.state, p.zip)) as address
    from patients p where p.id = ${patientId} and p.md_office_id in (${patientScopeSql(userId)})`)) as unknown as {
      rows: { id: string; mdOfficeId: string; name: string; dob: string; address: string }[];
    }
  ).rows;
  return row ?? null;
}

/** A practice's name and address, as a signed prescription names where the prescriber writes from. */
export async function practiceAddress(db: Executor, practiceId: string): Promise<string> {
  const [row] = (
    (await db.execute(sql`
    select concat_ws(', ', o.name, o.address1, o.city, concat_ws(' ', o.state, o.zip)) as address
    from md_offices o where o.id = ${practiceId}`)) as unknown as { rows: { address: string }[] }
  ).rows;
  return row?.address ?? '';
}
