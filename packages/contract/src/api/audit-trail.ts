/**
 * The audit trail's reports for a privacy officer (issue 49, decision 0061): calls of our design. Every report is a
 * page of 50, newest first, over a date range; the same filters export as CSV or as a FHIR AuditEvent Bundle.
 */
import { z } from 'zod';
import {
  AUDIT_CHANNELS,
  AUDIT_NOTE_MAX,
  AUDIT_REPORT_MAX_DAYS,
  AUDIT_REVIEW_MAX_DAYS,
  UNUSUAL_ACCESS_RULE_KEYS,
} from '../rules/audit-trail.ts';
import { parseIsoDate } from '../rules/dates.ts';
import { isoDateSchema } from './fields.ts';
import { notARecord, ref, refId } from './references.ts';

const dayNumber = (iso: string) => {
  const d = parseIsoDate(iso);
  return d ? Date.UTC(d.year, d.month - 1, d.day) / 86_400_000 : Number.NaN;
};

const range = { from: isoDateSchema, to: isoDateSchema };
/** From and to (inclusive): from not after to, at most `maxDays` apart. */
type Range = { from: string; to: string };
const withRange = <T extends z.ZodObject<typeof range & z.ZodRawShape>>(schema: T, maxDays: number) =>
  schema
    .refine((r) => dayNumber((r as Range).from) <= dayNumber((r as Range).to), {
      message: 'The start must not be after the end.',
      path: ['to'],
    })
    .refine((r) => dayNumber((r as Range).to) - dayNumber((r as Range).from) < maxDays, {
      message: `Choose at most ${maxDays} days.`,
      path: ['from'],
    });

const pageField = z.coerce.number().int().min(1).max(10_000).default(1);
export const AUDIT_EXPORT_FORMATS = ['csv', 'fhir'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
const formatField = z.enum(AUDIT_EXPORT_FORMATS, { message: 'Choose CSV or FHIR.' }).default('csv');

/** GET audit-trail/patient-access: one patient's accesses and changes. */
const patientAccessShape = { patientId: refId('auditPatient'), ...range };
export const patientAccessQuerySchema = withRange(z.object({ ...patientAccessShape, page: pageField }), AUDIT_REPORT_MAX_DAYS);
export type PatientAccessQuery = z.infer<typeof patientAccessQuerySchema>;
export const patientAccessExportQuerySchema = withRange(
  z.object({ ...patientAccessShape, format: formatField }),
  AUDIT_REPORT_MAX_DAYS,
);

/** GET audit-trail/user-activity: one user's actions. */
const userActivityShape = { userId: refId('auditUser'), ...range };
export const userActivityQuerySchema = withRange(z.object({ ...userActivityShape, page: pageField }), AUDIT_REPORT_MAX_DAYS);
export type UserActivityQuery = z.infer<typeof userActivityQuerySchema>;
export const userActivityExportQuerySchema = withRange(
  z.object({ ...userActivityShape, format: formatField }),
  AUDIT_REPORT_MAX_DAYS,
);

export const auditActorSchema = z.object({
  userId: z.string().nullable(),
  /** The person, or the pharmacy system's client name. */
  name: z.string().nullable(),
  /** 'MD', 'Staff', 'Provider admin', 'Pharmacy system' … */
  role: z.string().nullable(),
  practice: z.string().nullable(),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  /** ISO 8601 instant. */
  at: z.string(),
  actor: auditActorSchema,
  action: z.string(),
  description: z.string(),
  outcome: z.enum(['success', 'refused']),
  channel: z.enum(AUDIT_CHANNELS),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  /** The user activity report only: the patients the row is about (a name only where the reviewer may see it). */
  patients: z.array(z.object({ id: z.string(), name: z.string().nullable() })).optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  records: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditPatientSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** YYYY-MM-DD. */
  dob: z.string(),
  practice: z.string(),
});
export type AuditPatient = z.infer<typeof auditPatientSchema>;
export const patientAccessReportSchema = auditPageSchema.extend({ patient: auditPatientSchema });
export type PatientAccessReport = z.infer<typeof patientAccessReportSchema>;

export const auditUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  practice: z.string().nullable(),
});
export type AuditUser = z.infer<typeof auditUserSchema>;
export const userActivityReportSchema = auditPageSchema.extend({ user: auditUserSchema });
export type UserActivityReport = z.infer<typeof userActivityReportSchema>;

/** POST audit-trail/patient-search: the search text in the body, never in a URL. */
export const auditPatientSearchSchema = z.object({
  search: z.string().trim().min(2, { message: 'Type at least 2 letters of a name or a date of birth.' }).max(100),
});
export const auditPatientSearchResponseSchema = z.object({ records: z.array(auditPatientSchema) });
export type AuditPatientSearchResponse = z.infer<typeof auditPatientSearchResponseSchema>;

/** GET audit-trail/users: the tenant's people (a reviewer picks whose activity to read). */
export const auditUsersQuerySchema = z.object({ search: z.string().trim().max(100).default('') });
export const auditUsersResponseSchema = z.object({ records: z.array(auditUserSchema) });
export type AuditUsersResponse = z.infer<typeof auditUsersResponseSchema>;

export const reviewStatusSchema = z.enum(['open', 'reviewed', 'all']).default('open');
export const auditReviewSchema = z.object({
  reviewedBy: z.string(),
  reviewedAt: z.string(),
  note: z.string(),
});
export type AuditReview = z.infer<typeof auditReviewSchema>;

/** GET audit-trail/support-windows: every break-the-glass window, its reason, length and what was read in it. */
export const supportWindowsQuerySchema = withRange(
  z.object({ status: reviewStatusSchema, page: pageField, ...range }),
  AUDIT_REVIEW_MAX_DAYS,
);
export const supportWindowReviewItemSchema = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string() }),
  practice: z.string(),
  reason: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  minutes: z.number().int(),
  /** Audit rows of the person inside the window, and how many patients they name. */
  reads: z.number().int(),
  patients: z.number().int(),
  review: auditReviewSchema.nullable(),
});
export type SupportWindowReviewItem = z.infer<typeof supportWindowReviewItemSchema>;
export const supportWindowsResponseSchema = z.object({
  records: z.array(supportWindowReviewItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type SupportWindowsResponse = z.infer<typeof supportWindowsResponseSchema>;

export const reviewNoteSchema = z.object({
  note: z
    .string()
    .trim()
    .min(3, { message: 'Write what you checked (at least 3 characters).' })
    .max(AUDIT_NOTE_MAX, { message: `Keep the note under ${AUDIT_NOTE_MAX} characters.` }),
});
export type ReviewNote = z.infer<typeof reviewNoteSchema>;
export const supportWindowParamsSchema = z.object({ windowId: refId('supportWindow') });

/** GET audit-trail/unusual-access: the findings of the three rules in the range. */
export const unusualAccessQuerySchema = withRange(
  z.object({ status: reviewStatusSchema, rule: z.enum(UNUSUAL_ACCESS_RULE_KEYS).optional(), ...range }),
  AUDIT_REVIEW_MAX_DAYS,
);
export const unusualAccessFindingSchema = z.object({
  /** Stable: the rule, the person and the day, patient or time window it is about. */
  key: z.string(),
  rule: z.enum(UNUSUAL_ACCESS_RULE_KEYS),
  user: z.object({ id: z.string(), name: z.string(), practice: z.string().nullable() }),
  /** The first and last access of the finding. */
  from: z.string(),
  to: z.string(),
  reads: z.number().int(),
  /** The patient of a read without open work (named: the reviewer may see every patient of the tenant). */
  patient: z.object({ id: z.string(), name: z.string() }).nullable(),
  patients: z.number().int(),
  review: auditReviewSchema.nullable(),
});
export type UnusualAccessFinding = z.infer<typeof unusualAccessFindingSchema>;
/** The newest findings of each rule (at most `perRule` of each), and how many each rule found in all. */
export const unusualAccessResponseSchema = z.object({
  records: z.array(unusualAccessFindingSchema),
  totals: z.record(z.enum(UNUSUAL_ACCESS_RULE_KEYS), z.number().int()),
  perRule: z.number().int(),
});
export type UnusualAccessResponse = z.infer<typeof unusualAccessResponseSchema>;
export const FINDING_KEY_MAX = 200;
export const findingReviewSchema = reviewNoteSchema.extend({
  key: notARecord(
    z.string().max(FINDING_KEY_MAX, { message: 'Finding not found.' }),
    "a finding's key: the server finds it again from the trail, within the reviewer's tenant",
  ),
});
export type FindingReview = z.infer<typeof findingReviewSchema>;

/** POST audit-trail/verify: walks the seals. */
export const chainReportSchema = z.object({
  ok: z.boolean(),
  seals: z.number().int(),
  sealedRows: z.number().int(),
  lastSealedRowId: z.number().int(),
  lastSealedAt: z.string().nullable(),
  unsealedRows: z.number().int(),
  purgedRows: z.number().int(),
  problem: z
    .object({
      kind: z.enum(['changed', 'removed', 'inserted', 'seal']),
      rowId: z.number().int(),
      sealId: z.number().int(),
    })
    .nullable(),
  checkedAt: z.string(),
});
export type ChainReport = z.infer<typeof chainReportSchema>;

/** GET audit-trail/privacy-officers: the tenant's provider admins and who of them reviews. */
export const privacyOfficerSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  privacyOfficer: z.boolean(),
});
export const privacyOfficersResponseSchema = z.object({ records: z.array(privacyOfficerSchema) });
export type PrivacyOfficersResponse = z.infer<typeof privacyOfficersResponseSchema>;
export const privacyOfficerParamsSchema = z.object({ userId: ref('account', z.uuid({ message: 'Account not found.' })) });
export const privacyOfficerUpdateSchema = z.object({ privacyOfficer: z.boolean() });
