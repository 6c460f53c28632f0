/** Prescriptions: the nested action-needed answer, the Rx list and the action calls (spec §3, §4, §7). */
import { z } from 'zod';
import { ACTION_NEEDED_QUERY_TYPES, type ActionNeededQueryType } from '../rules/action-needed-query.ts';
import { PRIOR_AUTH_METHODS, REFILL_DENIAL_REASONS } from '../rules/action-types.ts';
import { DEA_SCHEDULES } from '../rules/epcs.ts';
import { RX_LIST_FILTER_VALUES, rxListRangeProblem } from '../rules/rx-list.ts';
import { isoDateSchema, usPhoneSchema } from './fields.ts';
import { preparedDecisionSchema } from './prepared-decisions.ts';
import { ref } from './references.ts';
import { undoOfferSchema } from './undo.ts';

export const actionNeededPrescriptionSchema = z.object({
  id: z.string(),
  /** Our addition (issue 23): the practice the prescription belongs to (its signing policy decides who signs). */
  practiceId: z.string().optional(),
  patientID: z.string(),
  needsRefillAuth: z.boolean(),
  phoneException: z.boolean(),
  /** One of SUBSTITUTION_STATUSES, or a status the pharmacy system moved it to. */
  substitutionStatus: z.string().nullable(),
  /** One of PRIOR_AUTH_STATUSES, or a status the pharmacy system moved it to. */
  priorAuthStatus: z.string().nullable(),
  priorAuthMethod: z.enum(PRIOR_AUTH_METHODS).nullable(),
  /** Appeals: HCP action required on the appeal. */
  hcpActionRequired: z.boolean(),
  dispensedNdc: z.string().nullable(),
  prescribedNdc: z.string().nullable(),
  drugName: z.string(),
  strength: z.string().nullable(),
  quantity: z.number().int().nullable(),
  daysSupply: z.number().int().nullable(),
  refills: z.number().int(),
  sig: z.string().nullable(),
  /** 'YYYY-MM-DD HH:mm:ssZ', a UTC instant (decision 0026). */
  prescribedDate: z.string(),
  lastProcessedDate: z.string().nullable(),
  orderNumber: z.string().nullable(),
  orderStatus: z.string().nullable(),
  price: z.number().nullable(),
  /** Alternatives the pharmacy proposes, for a prescription waiting on an alternative-medication choice. */
  alternativeMeds: z.array(z.string()),
  /** Our additions (issue 22): the pharmacy's last fill (YYYY-MM-DD) and the refills the prescription has left. */
  lastFilledOn: z.string().nullable().optional(),
  refillsRemaining: z.number().int().nullable().optional(),
  /** Our addition (issue 23): a decision the practice's staff prepared for the prescriber's signature. */
  prepared: preparedDecisionSchema.nullable().optional(),
  /** Our addition (issue 23): the "always send by fax" standing rule routing its authorization, by name, or null. */
  faxByRule: z.string().nullable().optional(),
  /**
   * Our addition (issue 48): a controlled substance (by its NDC in the catalogue), with its DEA schedule when known;
   * null when not controlled. Its refill is authorized only by an EPCS signature.
   */
  controlled: z
    .object({ schedule: z.enum(DEA_SCHEDULES).nullable() })
    .nullable()
    .optional(),
});
export type ActionNeededPrescription = z.infer<typeof actionNeededPrescriptionSchema>;

export const actionNeededPatientSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dob: z.string(),
  phoneNumbers: z.array(z.string()),
  prescriptions: z.array(actionNeededPrescriptionSchema),
});
export type ActionNeededPatient = z.infer<typeof actionNeededPatientSchema>;

export const actionNeededDoctorSchema = z.object({
  doctorId: z.string(),
  name: z.string(),
  role: z.string(),
  patients: z.array(actionNeededPatientSchema),
});
export type ActionNeededDoctor = z.infer<typeof actionNeededDoctorSchema>;

export const actionNeededQuerySchema = z.object({
  actionType: z
    .enum(Object.values(ACTION_NEEDED_QUERY_TYPES) as [ActionNeededQueryType, ...ActionNeededQueryType[]])
    .default('ACTION_NEEDED_ALL'),
  /** Only the prescriptions of this prescriber (an HCP id of the user's offices). */
  filterBy: ref('hcp', z.uuid({ message: 'filterBy must be a prescriber id.' })).optional(),
});
export type ActionNeededQuery = z.infer<typeof actionNeededQuerySchema>;
export const actionNeededResponseSchema = z.object({ doctors: z.array(actionNeededDoctorSchema) });
export type ActionNeededResponse = z.infer<typeof actionNeededResponseSchema>;

export const rxListQuerySchema = z
  .object({
    startdate: isoDateSchema,
    enddate: isoDateSchema,
    selectedFilter: z
      .enum(RX_LIST_FILTER_VALUES, { message: `selectedFilter must be one of ${RX_LIST_FILTER_VALUES.join(', ')}.` })
      .default('none'),
  })
  .superRefine((query, ctx) => {
    const problem = rxListRangeProblem(query.startdate, query.enddate);
    if (problem) ctx.addIssue({ code: 'custom', path: ['enddate'], message: problem });
  });

export type RxListQuery = z.infer<typeof rxListQuerySchema>;

export const rxListItemSchema = z.object({
  id: z.string(),
  practiceName: z.string(),
  patientName: z.string(),
  patientDob: z.string(),
  prescriptionName: z.string(),
  isWholeSale: z.boolean(),
  orderNumber: z.string().nullable(),
  prescribedDate: z.string(),
  orderStatus: z.string().nullable(),
  pending: z.boolean(),
  lastProcessedDate: z.string().nullable(),
  prescriberName: z.string(),
  prescriberPhoneNumber: z.string().nullable(),
  prescriberCreatedDate: z.string().nullable(),
  prescriberSpecialty: z.string().nullable(),
  price: z.number().nullable(),
});
export type RxListItem = z.infer<typeof rxListItemSchema>;
export const rxListResponseSchema = z.array(rxListItemSchema);

const senderName = z.string().trim().min(1, { message: 'Sender name is required.' }).max(120);
/**
 * 'Don't ask me again before sending', ticked in the confirmation that showed what goes to the pharmacy
 * (issue 21): saved as the user's preference with the call, as skipErxConfirmation is for eRx.
 */
const skipSendConfirmation = z.boolean().optional();

export const refillAuthorizedFaxSchema = z.object({
  refills: z.number().int().min(0).max(11),
  sig: z.string().trim().min(1, { message: 'Sig is required.' }).max(1000),
  senderName,
  skipSendConfirmation,
});
export const refillAuthorizedErxSchema = z.object({ skipErxConfirmation: z.boolean().optional() });
export const refillDeniedSchema = z.object({ reason: z.enum(REFILL_DENIAL_REASONS), senderName, skipSendConfirmation });
export const refillPostponedSchema = z.object({ refillPostponedToDate: isoDateSchema, senderName });
export const alternativeMedSchema = z.object({
  noSubstitute: z.boolean(),
  selectedAlternativeMed: z.string().trim().max(200).nullable().optional(),
  notes: z.string().max(2000).optional(),
  senderName,
  skipSendConfirmation,
});
const prescriptionIds = z
  .array(ref('prescription', z.uuid({ message: 'Each prescription id must be a prescription id.' })))
  .min(1, { message: 'Choose at least one prescription.' })
  .max(500)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'A prescription id is listed twice.' });
export const priorAuthDismissSchema = z.object({
  prescriptionIds,
  skipPriorAuthDismissNotice: z.boolean().optional(),
});
export const mdSignatureReceivedSchema = z.object({ prescriptionIds });
export const chartNotesSentSchema = z.object({
  chartNote: z.string().trim().min(1, { message: 'Chart note is required.' }).max(5000),
  isICD10TriedAndFailed: z.boolean(),
  skipSendConfirmation,
});
export const resolveExceptionsSchema = z.object({
  patientPhoneNumberUpdates: z
    .array(
      z.object({ patientId: ref('patient', z.uuid({ message: 'patientId must be a patient id.' })), phoneNumber: usPhoneSchema }),
    )
    .min(1)
    .max(100),
  skipSendConfirmation,
});

/** The answer of every action call: which prescriptions changed (spec §7 rejects a status of 'ERROR'). */
export const actionResultSchema = z.object({
  status: z.literal('OK'),
  prescriptionIds: z.array(z.string()),
  /** Our addition (issue 22): present while the decision can be undone. */
  undo: undoOfferSchema.optional(),
});
export type ActionResult = z.infer<typeof actionResultSchema>;

/**
 * How a decision's delivery to the pharmacy reads on the prescription's timeline (the client formats the times).
 * Here, not beside the webhook endpoints: every screen that reads a prescription loads this module.
 */
export const pharmacyDeliverySchema = z.object({
  status: z.enum(['sending', 'delivered', 'failing', 'dead']),
  sentAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type PharmacyDelivery = z.infer<typeof pharmacyDeliverySchema>;

/** One entry of a prescription's timeline (GET /prescriptions/{id}/events, our addition). */
export const prescriptionEventSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  /** ISO 8601 instant. */
  at: z.string(),
  actorName: z.string().nullable(),
  summary: z.string(),
  /** A decision's way to the pharmacy's system (issue 20): absent when no endpoint asked for it. */
  delivery: pharmacyDeliverySchema.optional(),
  /** A decision still held for its undo window (issue 22): nothing has left before this instant. */
  heldUntil: z.string().optional(),
  /** A decision taken back within its window: it stays on the timeline, and the pharmacy never heard of it. */
  undone: z.boolean().optional(),
});
export type PrescriptionEvent = z.infer<typeof prescriptionEventSchema>;
export const prescriptionEventsSchema = z.array(prescriptionEventSchema);

/**
 * GET prescriptions/{id}/earlier-chart-notes (issue 23, reusable packets): the chart notes the practice sent for the
 * same patient's earlier prior authorizations, newest first, to reuse instead of typing them again.
 */
export const earlierChartNoteSchema = z.object({
  prescriptionId: z.string(),
  /** The drug the notes were sent for, as the screens name it (display name and strength). */
  drug: z.string(),
  /** ISO 8601 instant. */
  sentAt: z.string(),
  chartNote: z.string(),
  isICD10TriedAndFailed: z.boolean(),
});
export type EarlierChartNote = z.infer<typeof earlierChartNoteSchema>;
export const earlierChartNotesSchema = z.object({ records: z.array(earlierChartNoteSchema) });
export type EarlierChartNotes = z.infer<typeof earlierChartNotesSchema>;

/** Spec §3 default: the eRx skip-confirmation flag is true unless a boolean is supplied. */
export function resolveSkipErxConfirmation(value: unknown): boolean {
  return typeof value === 'boolean' ? value : true;
}

/** Log names of failed actions (spec §8). */
export const ACTION_ERROR_LOG_NAMES = {
  alternativeMed: 'Prescription Alternative Med Sent Error',
  refillFax: 'Refill Auth Fax Confirm Error',
  refillDeny: 'Refill Auth Deny Error',
  refillPostpone: 'Refill Auth Postpone Error',
  chartNotes: 'Prior Auth Chart Notes Sent Error',
  refillErx: 'Refill Auth eRx Confirm Error',
  /** Our addition (issue 48): signing a controlled substance's refill (EPCS). */
  epcsSign: 'Refill Auth EPCS Sign Error',
} as const;
