/**
 * Covering prescribers (issue 23, rules/coverage.ts): calls of our design under /api/mdo/v1/users/{userId}/coverage.
 * A practice's own people read who signs for whom; its prescribers change the policy and name or end coverages.
 */
import { z } from 'zod';
import { SIGNING_POLICIES } from '../rules/coverage.ts';
import { pickedIdSchema } from './fields.ts';

const instant = (message: string) => z.iso.datetime({ offset: true, message });

export const coverageSchema = z.object({
  id: z.string(),
  coveringPrescriber: z.object({ id: z.string(), name: z.string() }),
  coveredPrescriber: z.object({ id: z.string(), name: z.string() }),
  /** ISO 8601 instants: in force from `startsAt` up to (not including) `endsAt`. */
  startsAt: z.string(),
  endsAt: z.string(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type Coverage = z.infer<typeof coverageSchema>;

export const practiceSigningSchema = z.object({
  practiceId: z.string(),
  practiceName: z.string(),
  policy: z.enum(SIGNING_POLICIES),
  /** Whether this user may change the policy and the coverages (the practice's prescribers). */
  mayManage: z.boolean(),
  prescribers: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Coverages not ended and not over, soonest first. */
  coverages: z.array(coverageSchema),
});
export type PracticeSigning = z.infer<typeof practiceSigningSchema>;

/** GET users/{id}/coverage: the user's practices, each with its policy and its current and coming coverages. */
export const coverageResponseSchema = z.object({ practices: z.array(practiceSigningSchema) });
export type CoverageResponse = z.infer<typeof coverageResponseSchema>;

/** PUT users/{id}/coverage/policy: one practice's policy. */
export const signingPolicyInputSchema = z.object({
  practiceId: pickedIdSchema('Choose a practice.'),
  policy: z.enum(SIGNING_POLICIES, { message: 'Choose who signs.' }),
});
export type SigningPolicyInput = z.infer<typeof signingPolicyInputSchema>;

/** POST users/{id}/coverage: name a covering prescriber (the screen sends the first and last day as instants). */
export const coverageInputSchema = z.object({
  practiceId: pickedIdSchema('Choose a practice.'),
  coveringPrescriberId: pickedIdSchema('Choose who covers.'),
  coveredPrescriberId: pickedIdSchema('Choose whom they cover for.'),
  startsAt: instant('Enter the first day.'),
  endsAt: instant('Enter the last day.'),
});
export type CoverageInput = z.infer<typeof coverageInputSchema>;
