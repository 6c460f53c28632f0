/**
 * Support access (break-the-glass) and the provider's practice overview (docs/decisions/0020): calls of our
 * design. The provider's admin and sales users see counts per practice; to help one practice they open
 * read-only access to its patients, with a reason, for at most an hour.
 */
import { z } from 'zod';
import { SUPPORT_ACCESS_LIMITS } from '../rules/clinical-access.ts';
import { numberField, pickedIdSchema } from './fields.ts';
import { ref } from './references.ts';

export const actionCountsSchema = z.object({
  altMed: z.number().int(),
  appeals: z.number().int(),
  phoneException: z.number().int(),
  priorAuth: z.number().int(),
  refillAuth: z.number().int(),
  total: z.number().int(),
});

/** GET users/{id}/practice-workload (query: the paged search of practices, `pagedQuerySchema`): what waits at each
 * practice, without any patient data. */
export const practiceWorkloadSchema = z.object({
  mdOfficeId: z.string(),
  name: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  counts: actionCountsSchema,
  unreadComments: z.number().int(),
});
export type PracticeWorkload = z.infer<typeof practiceWorkloadSchema>;
export const practiceWorkloadResponseSchema = z.object({
  records: z.array(practiceWorkloadSchema),
  total: z.number().int(),
});
export type PracticeWorkloadResponse = z.infer<typeof practiceWorkloadResponseSchema>;

export const supportAccessReasonSchema = z
  .string({ message: 'Say why you need access.' })
  .trim()
  .min(SUPPORT_ACCESS_LIMITS.reasonMinLength, {
    message: `Say why you need access (at least ${SUPPORT_ACCESS_LIMITS.reasonMinLength} characters).`,
  })
  .max(SUPPORT_ACCESS_LIMITS.reasonMaxLength, {
    message: `Keep the reason under ${SUPPORT_ACCESS_LIMITS.reasonMaxLength} characters.`,
  });

/** POST users/{id}/support-access: open it (an open window of the same user ends first). */
export const supportAccessOpenSchema = z.object({
  mdOfficeId: ref('practice', pickedIdSchema('Choose a practice.')),
  reason: supportAccessReasonSchema,
  minutes: numberField(
    z
      .number({ message: 'Choose how long.' })
      .int()
      .min(SUPPORT_ACCESS_LIMITS.minMinutes, { message: `At least ${SUPPORT_ACCESS_LIMITS.minMinutes} minutes.` })
      .max(SUPPORT_ACCESS_LIMITS.maxMinutes, { message: `At most ${SUPPORT_ACCESS_LIMITS.maxMinutes} minutes.` }),
  ).default(SUPPORT_ACCESS_LIMITS.maxMinutes),
});
export type SupportAccessOpen = z.infer<typeof supportAccessOpenSchema>;
export type SupportAccessOpenFormValues = z.input<typeof supportAccessOpenSchema>;

export const supportAccessGrantSchema = z.object({
  id: z.string(),
  mdOfficeId: z.string(),
  practiceName: z.string(),
  userName: z.string(),
  reason: z.string(),
  /** ISO 8601 instants. */
  startedAt: z.string(),
  expiresAt: z.string(),
  endedAt: z.string().nullable(),
  active: z.boolean(),
});
export type SupportAccessGrant = z.infer<typeof supportAccessGrantSchema>;

/** GET users/{id}/support-access: the caller's open window, if any. */
export const supportAccessStateSchema = z.object({ active: supportAccessGrantSchema.nullable() });
export type SupportAccessState = z.infer<typeof supportAccessStateSchema>;

/** GET md-offices/{id}/support-access: who opened support access to this practice, why and when (newest first). */
export const supportAccessLogSchema = z.object({ records: z.array(supportAccessGrantSchema) });
export type SupportAccessLog = z.infer<typeof supportAccessLogSchema>;
