/** An appeal row and its files as the API answers them. */
import { type Appeal, type AppealFile, type AppealSlot, appealDraftSchema, capitalizeName } from '@hcp/contract';
import type * as repo from './repository.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export type FileRow = Awaited<ReturnType<typeof repo.filesOf>>[number];
const fileOf = (f: FileRow): AppealFile => ({
  slot: f.slot as AppealSlot,
  originalName: f.originalName,
  contentType: f.contentType,
  sizeBytes: f.sizeBytes,
  uploadedAt: f.createdAt.toISOString(),
});

export function appealOf(row: repo.AppealRow, files: FileRow[] = []): Appeal {
  const draft = appealDraftSchema.safeParse(row.draft ?? {});
  return {
    id: row.id,
    status: row.status,
    patientName: `${capitalizeName(row.patient_first_name)} ${capitalizeName(row.patient_last_name)}`,
    patientDob: row.patient_dob,
    drugName: row.drug_name,
    strength: row.strength,
    payer: row.payer,
    denialReason: row.denial_reason,
    denialDate: row.denial_date,
    whatIsNeeded: row.what_is_needed,
    clinicalNotesRequired: row.clinical_notes_required,
    prescriberName: `${row.prescriber_first_name} ${row.prescriber_last_name}`,
    draft: draft.success ? draft.data : appealDraftSchema.parse({}),
    files: files.map(fileOf),
    submittedAt: iso(row.submitted_at),
  };
}
