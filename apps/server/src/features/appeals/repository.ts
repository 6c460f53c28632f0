/** SQL of appeals: the appeal with what the form shows, key lookups, attempts, drafts. */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { appealFiles, appeals, prescriptions } from '../../db/schema.ts';
import { patientScopeSql } from '../../lib/office-scope.ts';

export interface AppealRow {
  id: string;
  prescription_id: string;
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
  /** Opened by someone who prepares it for the prescriber (issue 23): no attestation, no submit. */
  prepareOnly?: boolean;
}

const appealSelect = sql`select a.id, a.prescription_id, a.status, a.npi, a.access_key_expires_at, a.failed_attempts, a.locked_until, a.payer,
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

/**
 * The appeal of a prescription, only when the signed-in user is that prescription's prescriber (an enabled
 * portal account linked to the HCP record) within their tenant; else null (the caller answers 404).
 */
export async function findForPrescriber(db: Executor, userId: string, prescriptionId: string): Promise<AppealRow | null> {
  const result = (await db.execute(sql`${appealSelect}
    join users u on u.id = ${userId} and u.disabled_at is null and u.md_staff_id = rx.prescriber_id and u.tenant_id = s.tenant_id
    where a.prescription_id = ${prescriptionId}
    order by a.created_at desc limit 1`)) as unknown as { rows: AppealRow[] };
  return result.rows[0] ?? null;
}

/** The prescription's appeal when it belongs to one of the user's practices (whose people prepare it, issue 23). */
export async function findForPractice(db: Executor, userId: string, prescriptionId: string): Promise<AppealRow | null> {
  const result = (await db.execute(sql`${appealSelect}
    where a.prescription_id = ${prescriptionId} and rx.md_office_id in (${patientScopeSql(userId)})
    order by a.created_at desc limit 1`)) as unknown as { rows: AppealRow[] };
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

export async function filesOf(db: Executor, appealId: string) {
  return db
    .select({
      slot: appealFiles.slot,
      originalName: appealFiles.originalName,
      storedName: appealFiles.storedName,
      contentType: appealFiles.contentType,
      sizeBytes: appealFiles.sizeBytes,
      createdAt: appealFiles.createdAt,
    })
    .from(appealFiles)
    .where(eq(appealFiles.appealId, appealId));
}

/** Puts a file in its slot, replacing the slot's earlier file; returns that earlier file's stored name. */
export async function putFile(
  db: Executor,
  row: { appealId: string; slot: string; originalName: string; storedName: string; contentType: string; sizeBytes: number },
): Promise<string | null> {
  const [previous] = await db
    .select({ storedName: appealFiles.storedName })
    .from(appealFiles)
    .where(and(eq(appealFiles.appealId, row.appealId), eq(appealFiles.slot, row.slot)));
  await db
    .insert(appealFiles)
    .values(row)
    .onConflictDoUpdate({
      target: [appealFiles.appealId, appealFiles.slot],
      set: {
        originalName: row.originalName,
        storedName: row.storedName,
        contentType: row.contentType,
        sizeBytes: row.sizeBytes,
        createdAt: sql`now()`,
      },
    });
  return previous?.storedName ?? null;
}

export async function fileInSlot(db: Executor, appealId: string, slot: string) {
  const [row] = await db
    .select({
      originalName: appealFiles.originalName,
      storedName: appealFiles.storedName,
      contentType: appealFiles.contentType,
      sizeBytes: appealFiles.sizeBytes,
    })
    .from(appealFiles)
    .where(and(eq(appealFiles.appealId, appealId), eq(appealFiles.slot, slot)));
  return row ?? null;
}

/** Which of these stored names some appeal still refers to. */
export async function referencedNames(db: Executor, storedNames: string[]): Promise<Set<string>> {
  if (storedNames.length === 0) return new Set();
  const rows = await db
    .select({ storedName: appealFiles.storedName })
    .from(appealFiles)
    .where(inArray(appealFiles.storedName, storedNames));
  return new Set(rows.map((r) => r.storedName));
}

/** Takes a file out of its slot; returns its stored name (null when the slot was empty). */
export async function removeFile(db: Executor, appealId: string, slot: string): Promise<string | null> {
  const [row] = await db
    .delete(appealFiles)
    .where(and(eq(appealFiles.appealId, appealId), eq(appealFiles.slot, slot)))
    .returning({ storedName: appealFiles.storedName });
  return row?.storedName ?? null;
}

/** Locks the appeal as submitted; false when it already was (a second submit). */
export async function markSubmitted(db: Executor, appealId: string, at: Date): Promise<{ prescriptionId: string } | null> {
  const [row] = await db
    .update(appeals)
    .set({ status: 'SUBMITTED', submittedAt: at, updatedAt: sql`now()` })
    .where(and(eq(appeals.id, appealId), isNull(appeals.submittedAt)))
    .returning({ prescriptionId: appeals.prescriptionId });
  return row ?? null;
}

export async function clearHcpAction(db: Executor, prescriptionId: string) {
  await db
    .update(prescriptions)
    .set({ hcpActionRequired: false, version: sql`${prescriptions.version} + 1`, updatedAt: sql`now()` })
    .where(eq(prescriptions.id, prescriptionId));
}

/** A file of a submitted appeal (only submitted appeals' files are linked in messages to the pharmacy). */
export async function submittedFile(db: Executor, fileId: string) {
  const [row] = await db
    .select({
      appealId: appealFiles.appealId,
      slot: appealFiles.slot,
      originalName: appealFiles.originalName,
      storedName: appealFiles.storedName,
      contentType: appealFiles.contentType,
      sizeBytes: appealFiles.sizeBytes,
    })
    .from(appealFiles)
    .innerJoin(appeals, eq(appeals.id, appealFiles.appealId))
    .where(and(eq(appealFiles.id, fileId), isNotNull(appeals.submittedAt)));
  return row ?? null;
}

/**
 * The files of the same patient's earlier, submitted appeals at the same practice (issue 23): what this appeal may
 * reuse. Each stored file once (a file reused before is listed from its latest appeal), newest appeal first. With
 * `fileId`, only that file when it is one of them (the reuse check).
 */
export async function earlierFilesFor(db: Executor, appealId: string, fileId?: string) {
  const result = (await db.execute(sql`
    select * from (
      select distinct on (f.stored_name) f.id as "fileId", f.slot, f.original_name as "originalName",
        f.stored_name as "storedName", f.content_type as "contentType", f.size_bytes as "sizeBytes",
        to_char(a2.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "submittedAt"
      from appeals a
      join prescriptions rx on rx.id = a.prescription_id
      join prescriptions rx2 on rx2.patient_id = rx.patient_id and rx2.md_office_id = rx.md_office_id
      join appeals a2 on a2.prescription_id = rx2.id and a2.id <> a.id and a2.submitted_at is not null
      join appeal_files f on f.appeal_id = a2.id
      where a.id = ${appealId}::uuid ${fileId ? sql`and f.id = ${fileId}::uuid` : sql``}
      order by f.stored_name, a2.submitted_at desc
    ) files order by "submittedAt" desc, slot, "fileId"`)) as unknown as {
    rows: {
      fileId: string;
      slot: string;
      originalName: string;
      storedName: string;
      contentType: string;
      sizeBytes: number;
      submittedAt: string;
    }[];
  };
  return result.rows;
}
