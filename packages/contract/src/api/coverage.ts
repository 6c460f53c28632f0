/**
 * Covering prescribers (issue 23, rules/coverage.ts): calls of our design under /api/mdo/v1/users/{userId}/coverage.
 * A practice's own people read who signs for whom; its prescribers change the policy and name or end coverages.
 */
import { z } from 'zod';
import { COVERAGE_MESSAGES, coverageInstantsOf, coverageProblem, SIGNING_POLICIES } from '../rules/coverage.ts';
import { parseIsoDate } from '../rules/dates.ts';
import { pickedIdSchema } from './fields.ts';
import { ref } from './references.ts';

const instant = (message: string) => z.iso.datetime({ offset: true, message });
/** A day from a date field (YYYY-MM-DD). */
const day = (message: string) => z.string({ message }).refine((v) => parseIsoDate(v) !== null, { message });

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
  practiceId: ref('practice', pickedIdSchema('Choose a practice.')),
  policy: z.enum(SIGNING_POLICIES, { message: 'Choose who signs.' }),
});
export type SigningPolicyInput = z.infer<typeof signingPolicyInputSchema>;

const coveringPrescriberId = ref('hcp', pickedIdSchema('Choose who covers.'), { of: 'practiceId' });
const coveredPrescriberId = ref('hcp', pickedIdSchema('Choose whom they cover for.'), { of: 'practiceId' });

/** POST users/{id}/coverage: name a covering prescriber (the screen sends the first and last day as instants). */
export const coverageInputSchema = z.object({
  practiceId: ref('practice', pickedIdSchema('Choose a practice.')),
  coveringPrescriberId,
  coveredPrescriberId,
  startsAt: instant('Enter the first day.'),
  endsAt: instant('Enter the last day.'),
});
export type CoverageInput = z.infer<typeof coverageInputSchema>;

/**
 * What a person fills in: whole days of their own calendar (YYYY-MM-DD from a date field), checked with the rule the
 * server applies to the instants they become (`coverageInputOf`).
 */
export const coverageFormSchema = z
  .object({
    coveringPrescriberId,
    coveredPrescriberId,
    firstDay: day('Enter the first day.'),
    lastDay: day('Enter the last day.'),
  })
  .superRefine((form, ctx) => {
    const instants = coverageInstantsOf(form.firstDay, form.lastDay);
    if (!instants) return;
    const problem = coverageProblem({ ...form, ...instants }, new Date());
    if (problem) {
      const path = problem.path === 'endsAt' ? 'lastDay' : problem.path;
      ctx.addIssue({ code: 'custom', path: [path], message: problem.message });
    }
  });
export type CoverageFormValues = z.infer<typeof coverageFormSchema>;

/** The call a filled-in form makes for a practice. */
export function coverageInputOf(practiceId: string, form: CoverageFormValues): CoverageInput {
  const instants = coverageInstantsOf(form.firstDay, form.lastDay);
  if (!instants) throw new Error(COVERAGE_MESSAGES.endsBeforeStart);
  return {
    practiceId,
    coveringPrescriberId: form.coveringPrescriberId,
    coveredPrescriberId: form.coveredPrescriberId,
    ...instants,
  };
}
