/**
 * Standing rules (issue 23; rules/standing-rules.ts): calls of our design. A practice's rules are read by its own
 * people and made, changed or removed by its prescribers; saving one applies the practice's rules to the open queue
 * at once, exactly as the preview said.
 */
import { z } from 'zod';
import { normalizeNdc, STANDING_RULE_ACTIONS, STANDING_RULE_LIMITS, standingRuleProblem } from '../rules/standing-rules.ts';
import { optionalTextSchema, pickedIdSchema, singleLineSchema, UUID_LENGTH } from './fields.ts';
import { ref } from './references.ts';

/** An optional pick: an empty choice ('' from a select) is none. */
const optionalId = (message: string) => {
  const id = pickedIdSchema(message);
  return z
    .string({ message })
    .max(UUID_LENGTH, { message })
    .refine((v) => v === '' || id.safeParse(v).success, { message })
    .nullish()
    .transform((v) => (v ? v : null));
};

/** What a person fills in; the server checks that the prescriber and patient belong to the practice. */
export const standingRuleInputSchema = z
  .object({
    name: singleLineSchema(STANDING_RULE_LIMITS.nameMax, `Keep the name under ${STANDING_RULE_LIMITS.nameMax} characters.`, {
      min: 1,
      message: 'Give the rule a name.',
    }),
    practiceId: ref('practice', pickedIdSchema('Choose a practice.')),
    action: z.enum(STANDING_RULE_ACTIONS, { message: 'Choose what the rule does.' }),
    prescriberId: ref('hcp', optionalId('Choose a prescriber.'), { of: 'practiceId' }),
    patientId: ref('patient', optionalId('Choose a patient.'), { of: 'practiceId' }),
    drugName: z
      .string()
      .trim()
      .max(STANDING_RULE_LIMITS.drugNameMax, { message: 'Keep the drug name shorter.' })
      .nullish()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || v.length >= STANDING_RULE_LIMITS.drugNameMin, {
        message: `Type at least ${STANDING_RULE_LIMITS.drugNameMin} letters of the drug name.`,
      }),
    ndc: z
      .string()
      .trim()
      .max(20, { message: 'Enter the 11-digit NDC.' })
      .nullish()
      .transform((v) => (v ? normalizeNdc(v) : null))
      .refine((v) => v === null || v.length === 11, { message: 'Enter the 11-digit NDC.' }),
    /** What the pharmacy reads with a denial (a visit rule's reason). */
    note: optionalTextSchema(STANDING_RULE_LIMITS.noteMax, `Keep the note under ${STANDING_RULE_LIMITS.noteMax} characters.`),
    enabled: z.boolean().default(true),
  })
  .superRefine((rule, ctx) => {
    const problem = standingRuleProblem(rule);
    if (problem) ctx.addIssue({ code: 'custom', path: ['drugName'], message: problem });
  });
export type StandingRuleInput = z.infer<typeof standingRuleInputSchema>;
export type StandingRuleFormValues = z.input<typeof standingRuleInputSchema>;

export const standingRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  practiceId: z.string(),
  practiceName: z.string(),
  action: z.enum(STANDING_RULE_ACTIONS),
  prescriberId: z.string().nullable(),
  prescriberName: z.string().nullable(),
  patientId: z.string().nullable(),
  /** "Last, First" of the patient the rule is for; only the practice's own people read rules. */
  patientName: z.string().nullable(),
  drugName: z.string().nullable(),
  ndc: z.string().nullable(),
  note: z.string().nullable(),
  enabled: z.boolean(),
  /** How many requests the rule has answered so far. */
  answeredCount: z.number().int(),
  createdByName: z.string().nullable(),
  /** ISO 8601 instants. */
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});
export type StandingRule = z.infer<typeof standingRuleSchema>;

/** GET users/{id}/standing-rules: the rules of the user's practices, with what the user may do with them. */
export const standingRulesResponseSchema = z.object({
  records: z.array(standingRuleSchema),
  /** The practices whose rules this user may make or change (their prescribers'), with their prescribers. */
  manageable: z.array(
    z.object({
      practiceId: z.string(),
      practiceName: z.string(),
      prescribers: z.array(z.object({ id: z.string(), name: z.string() })),
    }),
  ),
});
export type StandingRulesResponse = z.infer<typeof standingRulesResponseSchema>;

/** One open request a rule would answer (preview) or answered (save). */
export const ruleAnsweredItemSchema = z.object({
  prescriptionId: z.string(),
  ruleId: z.string().nullable(),
  ruleName: z.string(),
  patientName: z.string(),
  drugName: z.string(),
  prescriberName: z.string(),
});
export type RuleAnsweredItem = z.infer<typeof ruleAnsweredItemSchema>;

/** POST users/{id}/standing-rules/preview {rule, ruleId?}: what saving it would answer now. Nothing is written. */
export const standingRulePreviewSchema = z.object({
  rule: standingRuleInputSchema,
  /** The rule being edited (its saved form is replaced by the draft in the preview). */
  ruleId: ref('rule', z.uuid({ message: 'Standing rule not found.' })).nullish(),
});
export const standingRulePreviewResponseSchema = z.object({
  items: z.array(ruleAnsweredItemSchema),
});
export type StandingRulePreviewResponse = z.infer<typeof standingRulePreviewResponseSchema>;

/** POST (create) / PUT (change, with the version read) answers: the rule and the requests answered at once. */
export const standingRuleSavedSchema = z.object({
  rule: standingRuleSchema,
  answered: z.array(ruleAnsweredItemSchema),
});
export type StandingRuleSaved = z.infer<typeof standingRuleSavedSchema>;

export const standingRuleUpdateSchema = z.object({
  rule: standingRuleInputSchema,
  version: z.number().int().min(0),
});
