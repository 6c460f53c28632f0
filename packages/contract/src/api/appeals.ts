/** HCP appeals (spec §2 /appeals-form, /getcovered; §3 slots; §7 Appeals; decisions in docs/decisions/0019-appeals.md). */
import { z } from 'zod';
import { ROUTES } from '../routes.ts';
import { ref } from './references.ts';

export const APPEAL_SLOTS = ['denialLetterFile', 'clinicalTrialFile', 'clinicalNotesFile', 'otherFile'] as const;
export type AppealSlot = (typeof APPEAL_SLOTS)[number];
export const APPEAL_SLOT_LABELS: Record<AppealSlot, string> = {
  denialLetterFile: 'Denial Letter',
  clinicalTrialFile: 'Relevant Clinical Studies or Practice Guidelines',
  clinicalNotesFile: 'Clinical Notes/Medical Records',
  otherFile: 'Additional Attachment',
};

export const APPEAL_AUTH_FAILED = 'The NPI or access key is not right. Check the link from the pharmacy.';
export const APPEAL_LINK_EXPIRED = 'This appeal link has expired. Ask the pharmacy for a new one.';
export const APPEAL_LOCKED = 'Too many attempts for this appeal. Try again later.';
export const APPEAL_SUBMITTED = 'This appeal was already submitted.';
/** A session that prepares an appeal for its prescriber (office staff, issue 23) tried to attest or submit it. */
export const APPEAL_PREPARE_ONLY =
  'Only the prescriber attests and submits an appeal. What you filled in and attached is kept for them.';
/** How long the link a pharmacy sends a prescriber works. */
export const APPEAL_LINK_DAYS = 30;

/**
 * The link a pharmacy sends the prescriber (no portal account needed): Get Covered when the payer needs clinical
 * notes, else the HCP appeal form; the NPI and access key sign the prescriber in to this one appeal.
 */
export function appealLinkPath(npi: string, key: string, clinicalNotesRequired: boolean): string {
  const query = `npi=${encodeURIComponent(npi)}&key=${encodeURIComponent(key)}`;
  return `${clinicalNotesRequired ? ROUTES.getCovered : ROUTES.appealsForm}?${query}`;
}

/** The header that carries an appeal-scoped token (the portal session's Authorization header stays separate). */
export const APPEAL_TOKEN_HEADER = 'x-appeal-token';

export const appealAuthRequestSchema = z.object({
  npi: z
    .string()
    .trim()
    .regex(/^\d{10}$/, { message: 'Enter the 10-digit NPI.' }),
  key: z
    .string()
    .trim()
    .min(6, { message: 'Enter the access key from the pharmacy.' })
    .max(64, { message: 'Enter the access key from the pharmacy.' }),
});
export type AppealAuthRequest = z.infer<typeof appealAuthRequestSchema>;

/** A signed-in prescriber asks for their own prescription's appeal (no key: the portal session proves who they are). */
export const appealPortalAuthRequestSchema = z.object({
  prescriptionId: ref('prescription', z.uuid({ message: 'Choose a prescription with an appeal.' })),
});
export type AppealPortalAuthRequest = z.infer<typeof appealPortalAuthRequestSchema>;

/** The draft fields of an appeal; saving replaces them (last write wins). */
export const appealDraftSchema = z.object({
  clinicalJustification: z.string().max(10_000, { message: 'Keep the justification under 10,000 characters.' }).default(''),
  diagnosisCodes: z.string().max(500).default(''),
  treatmentsTried: z.string().max(5_000).default(''),
  urgency: z.enum(['standard', 'expedited'], { message: 'Choose standard or expedited.' }).default('standard'),
  attestation: z.boolean().default(false),
});
export type AppealDraft = z.infer<typeof appealDraftSchema>;

/** Limits of attachments (our design): per file and per appeal. */
export const APPEAL_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const APPEAL_TOTAL_MAX_BYTES = 25 * 1024 * 1024;
export const APPEAL_FILE_TYPES_TEXT = 'PDF, PNG, JPEG, TIFF or Word (.docx)';
export const APPEAL_FILE_TOO_LARGE = 'Each file can be at most 10 MB.';
export const APPEAL_TOTAL_TOO_LARGE = 'The attachments of an appeal can be at most 25 MB together.';
export const APPEAL_FILE_WRONG_TYPE = `Only ${APPEAL_FILE_TYPES_TEXT} files can be attached.`;

export const appealFileSchema = z.object({
  slot: z.enum(APPEAL_SLOTS),
  originalName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  uploadedAt: z.string(),
});
export type AppealFile = z.infer<typeof appealFileSchema>;

/**
 * GET appeal/{id}/earlier-files (issue 23, reusable packets; our addition): the files of the same patient's earlier,
 * submitted appeals at the same practice, offered for this one without uploading them again.
 */
export const earlierAppealFileSchema = z.object({
  fileId: z.string(),
  slot: z.enum(APPEAL_SLOTS),
  originalName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  /** When the appeal it was given with was submitted (ISO 8601 instant). */
  submittedAt: z.string(),
});
export type EarlierAppealFile = z.infer<typeof earlierAppealFileSchema>;
export const earlierAppealFilesSchema = z.object({ records: z.array(earlierAppealFileSchema) });

/** POST appeal/{id}/reuse-file: put an earlier file in a slot of this appeal (shared by reference, not copied). */
export const reuseAppealFileSchema = z.object({
  fileId: ref('file', z.uuid({ message: 'Choose one of the earlier files.' })),
  slot: z.enum(APPEAL_SLOTS, { message: 'Unknown attachment slot.' }),
});
export type ReuseAppealFile = z.infer<typeof reuseAppealFileSchema>;

export const appealSchema = z.object({
  id: z.string(),
  status: z.string(),
  patientName: z.string(),
  patientDob: z.string(),
  drugName: z.string(),
  strength: z.string().nullable(),
  payer: z.string().nullable(),
  denialReason: z.string().nullable(),
  denialDate: z.string().nullable(),
  whatIsNeeded: z.string().nullable(),
  /** The Get Covered variant: the clinical notes attachment is required. */
  clinicalNotesRequired: z.boolean(),
  prescriberName: z.string(),
  draft: appealDraftSchema,
  files: z.array(appealFileSchema),
  submittedAt: z.string().nullable(),
});
export type Appeal = z.infer<typeof appealSchema>;

/** The reference a submitted appeal goes by (the start of its id, which the pharmacy has), as the receipt shows it. */
export const appealReference = (appealId: string) => appealId.replaceAll('-', '').slice(0, 10).toUpperCase();

/** What a submit needs (besides the attachments the variant requires), with the message for each gap. */
export function appealSubmitProblems(
  appeal: Pick<Appeal, 'draft' | 'files' | 'clinicalNotesRequired'>,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!appeal.draft.clinicalJustification.trim()) {
    problems.push({ path: 'clinicalJustification', message: 'Explain why the patient needs this medication.' });
  }
  if (!appeal.draft.attestation) problems.push({ path: 'attestation', message: 'Confirm the attestation to submit.' });
  if (appeal.clinicalNotesRequired && !appeal.files.some((f) => f.slot === 'clinicalNotesFile')) {
    problems.push({ path: 'clinicalNotesFile', message: 'Attach the clinical notes or medical records.' });
  }
  return problems;
}

export const appealAuthResponseSchema = z.object({
  /** Short-lived, for this one appeal; send it back in the x-appeal-token header. */
  token: z.string(),
  expiresAt: z.string(),
  appeal: appealSchema,
  /**
   * Our addition (issue 23): this session prepares the appeal for its prescriber — the practice's staff fill it in
   * and attach files; the attestation and the submit stay the prescriber's.
   */
  prepareOnly: z.boolean().optional(),
});
export type AppealAuthResponse = z.infer<typeof appealAuthResponseSchema>;
