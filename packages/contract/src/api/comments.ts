/** New Comments: doctors with patients that have unread comments, the thread, replies, read marks (spec §7). */
import { z } from 'zod';
import { ref } from './references.ts';

export const COMMENT_MAX_LENGTH = 2000;

export const doctorListSearchQuerySchema = z.object({
  newComments: z.enum(['true', 'false']).default('true'),
  /** Only this prescriber's patients (same meaning as on action-needed). */
  filterBy: ref('hcp', z.uuid({ message: 'filterBy must be a prescriber id.' })).optional(),
});

export const newCommentsDoctorSchema = z.object({
  doctorId: z.string(),
  name: z.string(),
  role: z.string(),
  patients: z.array(
    z.object({
      id: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      dob: z.string(),
      unreadCount: z.number().int().positive(),
      /** ISO instant of the newest unread comment. */
      latestAt: z.string(),
    }),
  ),
});
export const doctorListSearchResponseSchema = z.object({
  doctors: z.array(newCommentsDoctorSchema),
  /** Unread comments over all patients: the New Comments tab count. */
  total: z.number().int().nonnegative(),
});
export type DoctorListSearchResponse = z.infer<typeof doctorListSearchResponseSchema>;

export const commentsQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const commentSchema = z.object({
  id: z.string(),
  authorName: z.string(),
  fromPatient: z.boolean(),
  body: z.string(),
  /** ISO instant. */
  createdAt: z.string(),
  /** The unread mention of the user's office on this comment, if any (PUT office-mentions marks it read). */
  mentionId: z.string().nullable(),
  unread: z.boolean(),
  /** The medication the comment is about ('Atorvastatin 20 mg'), when it names one (issue 21). */
  medication: z.string().nullable().optional(),
});
export type Comment = z.infer<typeof commentSchema>;
/** Whose thread it is, so the screen can say so (issue 21: a thread titled only 'Comments' named no one). */
export const commentThreadPatientSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** YYYY-MM-DD. */
  dob: z.string(),
});
export const commentThreadSchema = z.object({
  records: z.array(commentSchema),
  total: z.number().int().nonnegative(),
  patient: commentThreadPatientSchema.optional(),
});
export type CommentThread = z.infer<typeof commentThreadSchema>;

export const commentBodySchema = z
  .string()
  .trim()
  .min(1, { message: 'Write a reply first.' })
  .max(COMMENT_MAX_LENGTH, { message: `Keep the reply under ${COMMENT_MAX_LENGTH} characters.` });

export const rxCommentRequestSchema = z.object({
  patientId: ref('patient', z.uuid({ message: 'Patient not found.' })),
  comment: commentBodySchema,
  /** The prescription the reply is about: one of that patient's (checked with the patient, issue 42). */
  prescriptionId: ref('prescription', z.uuid({ message: 'Prescription not found.' }), { of: 'patientId' }).optional(),
});
export type RxCommentRequest = z.infer<typeof rxCommentRequestSchema>;
export const rxCommentResponseSchema = z.object({ status: z.literal('SUCCESS'), comment: commentSchema });

export const officeMentionsRequestSchema = z.object({
  mentionIds: z
    .array(ref('mention', z.uuid({ message: 'Each mention id must be a mention id.' })))
    .min(1)
    .max(500),
});
export const officeMentionsResponseSchema = z.object({ status: z.literal('SUCCESS'), marked: z.number().int().nonnegative() });
