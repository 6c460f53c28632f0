/**
 * Prepare-then-sign (issue 23): the practice's staff prepare a decision that needs the prescriber's signature —
 * authorize a refill (refills and sig, or by eRx), deny it with a reason, choose an alternative — and mark it ready;
 * a prescriber signs one or all as prepared. Calls of our design; rules in rules/prepared-decisions.ts.
 */
import { z } from 'zod';
import { FINAL_DENIAL_REASONS } from '../rules/action-types.ts';
import { PREPARED_NOTE_MAX } from '../rules/prepared-decisions.ts';
import { numberField, optionalTextSchema } from './fields.ts';
import { ref } from './references.ts';

const note = optionalTextSchema(PREPARED_NOTE_MAX, `Keep the note under ${PREPARED_NOTE_MAX} characters.`);

/** PUT prescriptions/{id}/prepared-decision: what the prescriber is asked to sign, with a note for them. */
export const preparedDecisionInputSchema = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('refillAuthorizedFax'),
      refills: numberField(z.number({ message: 'Choose the refills.' }).int().min(0).max(11, { message: 'At most 11 refills.' })),
      sig: z
        .string({ message: 'Enter the directions (sig).' })
        .trim()
        .min(1, { message: 'Enter the directions (sig).' })
        .max(1000),
      note,
    }),
    z.object({ action: z.literal('refillAuthorizedErx'), note }),
    z.object({ action: z.literal('refillDenied'), reason: z.enum(FINAL_DENIAL_REASONS, { message: 'Choose a reason.' }), note }),
    z.object({
      action: z.literal('alternativeMed'),
      noSubstitute: z.boolean(),
      selectedAlternativeMed: z
        .string()
        .trim()
        .max(200)
        .nullish()
        .transform((v) => (v ? v : null)),
      note,
    }),
  ],
  { message: 'Choose what to prepare.' },
);
export type PreparedDecisionInput = z.infer<typeof preparedDecisionInputSchema>;

/**
 * The same decision as it is stored and answered: plain values, no input clean-up (an answer's schema must not
 * transform: the serializer encodes through it).
 */
const storedNote = z.string().nullable();
export const preparedDecisionValueSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('refillAuthorizedFax'), refills: z.number().int(), sig: z.string(), note: storedNote }),
  z.object({ action: z.literal('refillAuthorizedErx'), note: storedNote }),
  z.object({ action: z.literal('refillDenied'), reason: z.enum(FINAL_DENIAL_REASONS), note: storedNote }),
  z.object({
    action: z.literal('alternativeMed'),
    noSubstitute: z.boolean(),
    selectedAlternativeMed: z.string().nullable(),
    note: storedNote,
  }),
]);

/** A prepared decision as the list, the queue and the detail page show it. */
export const preparedDecisionSchema = z.object({
  decision: preparedDecisionValueSchema,
  preparedByName: z.string(),
  /** ISO 8601 instant. */
  preparedAt: z.string(),
});
export type PreparedDecision = z.infer<typeof preparedDecisionSchema>;

/** POST prepared-decisions/sign: sign these as prepared (each with the version the screen showed). */
export const signPreparedSchema = z.object({
  items: z
    .array(
      z.object({
        id: ref('prescription', z.uuid({ message: 'Each item must be a prescription id.' })),
        version: z.number().int().min(0).optional(),
      }),
    )
    .min(1, { message: 'Choose at least one item.' })
    .max(100, { message: 'Choose at most 100 items at once.' })
    .refine((items) => new Set(items.map((i) => i.id)).size === items.length, { message: 'An item is listed twice.' }),
  senderName: z.string().trim().min(1, { message: 'Sender name is required.' }).max(120),
});
export type SignPreparedInput = z.infer<typeof signPreparedSchema>;
