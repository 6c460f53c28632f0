/** SQL of appeals: the appeal with what the form shows, key lookups, attempts, drafts. */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { appeals } from '../../db/schema.ts';

export interface AppealRow {
  id: string;
  status: string;
  npi: string;
  access_key_expires_at: Date | string | null;
  failed_attempts: number;
  locked_until: Date | string | null;
  payer: string | null;
  denial_reason: string | null;
  denial_date: string | null;
  what_is_needed: string | null;
  clinical_notes_required: boolean;
  draft: Record<string, unknown>;
  submitted_at: Date | string | null;
  patient_first_name: string;
  patient_last_name: string;
  patient_dob: string;
  drug_name: string;
  strength: string | null;
  prescriber_first_name: string;
  prescriber_last_name: string;
}

const appealSelect = sql`select a.id, a.status, a.npi, a.access_key_expires_at, a.failed_attempts, a.locked_until, a.payer,
  a.denial_reason, to_char(a.denial_date, 'YYYY-MM-DD') as denial_date, a.what_is_needed, a.clinical_notes_required,
  a.draft, a.submitted_at, pt.first_name as patient_first_name, pt.last_name as patient_last_name,
  to_char(pt.dob, 'YYYY-MM-DD') as patient_dob, rx.drug_name, rx.strength,
  s.first_name as prescriber_first_name, s.last_name as prescriber_last_name
  from appeals a join prescriptions rx on rx.id = a.prescription_id join patients pt on pt.id = rx.patient_id
  join md_staff s on s.id = rx.prescriber_id`;

export async function findByKeyHash(db: Executor, keyHash: string): Promise<AppealRow | null> {
  const result = (await db.execute(sql`${appealSelect} where a.access_key_hash = ${keyHash} limit 1`)) as unknown as {
    rows: AppealRow[];
  };
  return result.rows[0] ?? null;
}

export async function findById(db: Executor, appealId: string): Promise<AppealRow | null> {
  const result = (await db.execute(sql`${appealSelect} where a.id = ${appealId} limit 1`)) as unknown as { rows: AppealRow[] };
  return result.rows[0] ?? null;
}

/** Counts a wrong NPI; the fifth in a row locks the appeal until `lockUntil`. Returns the new count. */
export async function recordFailedAttempt(db: Executor, appealId: string, lockAfter: number, lockUntil: Date): Promise<number> {
  const [row] = await db
    .update(appeals)
    .set({
      failedAttempts: sql`${appeals.failedAttempts} + 1`,
      lockedUntil: sql`case when ${appeals.failedAttempts} + 1 >= ${lockAfter} then ${lockUntil.toISOString()}::timestamptz else ${appeals.lockedUntil} end`,
    })
    .where(eq(appeals.id, appealId))
    .returning({ failedAttempts: appeals.failedAttempts });
  return row?.failedAttempts ?? 0;
}

export async function resetAttempts(db: Executor, appealId: string) {
  await db.update(appeals).set({ failedAttempts: 0, lockedUntil: null }).where(eq(appeals.id, appealId));
}

export async function saveDraft(db: Executor, appealId: string, draft: Record<string, unknown>) {
  await db.update(appeals).set({ draft, updatedAt: sql`now()` }).where(eq(appeals.id, appealId));
}
