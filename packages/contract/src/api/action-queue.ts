/** GET users/{id}/action-queue (issue 22, our addition): every open item of the user's practices, most urgent first. */
import { z } from 'zod';
import { ACTION_TYPES, FINAL_DENIAL_REASONS } from '../rules/action-types.ts';
import { isoDateSchema } from './fields.ts';
import { actionNeededPrescriptionSchema } from './prescriptions.ts';
import { ref } from './references.ts';
import { undoOfferSchema } from './undo.ts';

export const actionQueueQuerySchema = z.object({
  /** One category only (the items still carry all of theirs). */
  category: z.enum(ACTION_TYPES).optional(),
  /** One prescriber's items (an HCP id of the user's practices). */
  prescriber: ref('hcp', z.uuid({ message: 'prescriber must be a prescriber id.' })).optional(),
  /** One practice's items (a practice the user belongs to). */
  practice: ref('practice', z.uuid({ message: 'practice must be a practice id.' })).optional(),
});
export type ActionQueueQuery = z.infer<typeof actionQueueQuerySchema>;

const instant = z.string().describe("A UTC instant, 'YYYY-MM-DD HH:mm:ssZ' (decision 0026).");

/** One prescription that needs the user, with what a prescriber looks up before deciding. */
export const actionQueueItemSchema = z.object({
  id: z.string(),
  patient: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), dob: z.string() }),
  prescriber: z.object({ id: z.string(), name: z.string(), role: z.string() }),
  /** The practice, and how it sends a refill authorization (spec's prescribe-via: 'eRx', 'Fax' or not set). */
  practice: z.object({ id: z.string(), name: z.string(), prescribeVia: z.string().nullable() }),
  // The fields the categories are derived from (spec §4) and the drug, as in the Action Needed answer.
  ...actionNeededPrescriptionSchema.pick({
    needsRefillAuth: true,
    phoneException: true,
    substitutionStatus: true,
    priorAuthStatus: true,
    priorAuthMethod: true,
    hcpActionRequired: true,
    drugName: true,
    strength: true,
    prescribedNdc: true,
    dispensedNdc: true,
    quantity: true,
    daysSupply: true,
    refills: true,
    sig: true,
    alternativeMeds: true,
    prepared: true,
    faxByRule: true,
  }).shape,
  /** A controlled substance (by its NDC in the drug catalogue): never part of a bulk decision. */
  isControlled: z.boolean(),
  /** When the prescription was written. */
  prescribedDate: instant,
  lastFilledOn: isoDateSchema.nullable(),
  /** Last fill + days supply - today (rules/queue.ts); null when the pharmacy did not report the fill. */
  runOutInDays: z.number().int().nullable(),
  refillsRemaining: z.number().int().nullable(),
  /** Refill requests for this prescription answered before (authorized or denied). */
  timesRequestedBefore: z.number().int(),
  /** Refill requests for this prescription denied before. */
  priorDenials: z.number().int(),
  /** An approved prior authorization on file ends on this day. */
  priorAuthExpiresOn: isoDateSchema.nullable(),
  /** When the request reached the portal (the order among items that run out on the same day). */
  waitingSince: instant,
  /** Bumped by every change: a bulk decision sends it back and leaves out an item that changed meanwhile. */
  version: z.number().int(),
});
export type ActionQueueItem = z.infer<typeof actionQueueItemSchema>;

export const actionQueueResponseSchema = z.object({
  /** The server's day the run-out days were counted from. */
  today: isoDateSchema,
  items: z.array(actionQueueItemSchema),
});
export type ActionQueueResponse = z.infer<typeof actionQueueResponseSchema>;

/**
 * POST prescriptions/bulk-actions (issue 22, our addition): one decision on many items. Each item runs in its own
 * transaction and answers done or refused with why; the version is the one the screen showed, so an item that
 * changed meanwhile is left out rather than decided blind. One request id per call (a repeat answers the first).
 */
export const BULK_ACTIONS = [
  'refillAuthorize',
  'refillDeny',
  'refillPostpone',
  'priorAuthDismiss',
  'mdSignatureReceived',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/**
 * Whether a decision reaches the pharmacy (issue 47: the toast says "goes to the pharmacy" only when it does): a
 * postponement tells it nothing, the request comes back to the practice on its day.
 */
export const tellsPharmacy = (action: BulkAction): boolean => action !== 'refillPostpone';

/** A bulk denial gives one of these (a postponement asks for its date: it is the postpone action). */
export const BULK_DENIAL_REASONS = FINAL_DENIAL_REASONS;

export const bulkActionSchema = z
  .object({
    action: z.enum(BULK_ACTIONS),
    items: z
      .array(
        z.object({
          id: ref('prescription', z.uuid({ message: 'Each item must be a prescription id.' })),
          /** The item's version the screen showed; omitted, the item is decided as it is now. */
          version: z.number().int().min(0).optional(),
        }),
      )
      .min(1, { message: 'Choose at least one item.' })
      .max(100, { message: 'Choose at most 100 items at once.' })
      .refine((items) => new Set(items.map((i) => i.id)).size === items.length, {
        message: 'An item is listed twice.',
      }),
    reason: z.enum(BULK_DENIAL_REASONS).optional(),
    postponeTo: isoDateSchema.optional(),
    senderName: z.string().trim().min(1, { message: 'Sender name is required.' }).max(120),
  })
  .superRefine((body, ctx) => {
    if (body.action === 'refillDeny' && !body.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Choose the reason for the denial.' });
    }
    if (body.action === 'refillPostpone' && !body.postponeTo) {
      ctx.addIssue({ code: 'custom', path: ['postponeTo'], message: 'Choose the day to postpone to.' });
    }
  });
export type BulkActionInput = z.infer<typeof bulkActionSchema>;

export const bulkItemResultSchema = z.object({
  id: z.string(),
  status: z.enum(['done', 'refused']),
  /** Why the item was left out, in words for the user. */
  reason: z.string().optional(),
});
export type BulkItemResult = z.infer<typeof bulkItemResultSchema>;
export const bulkActionResultSchema = z.object({
  done: z.number().int(),
  refused: z.number().int(),
  results: z.array(bulkItemResultSchema),
  /** Present while the decided items can be undone (one undo takes back all of them). */
  undo: undoOfferSchema.optional(),
});
export type BulkActionResult = z.infer<typeof bulkActionResultSchema>;
