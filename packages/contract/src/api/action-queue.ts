/** GET users/{id}/action-queue (issue 22, our addition): every open item of the user's practices, most urgent first. */
import { z } from 'zod';
import { ACTION_TYPES, PRIOR_AUTH_METHODS } from '../rules/action-types.ts';
import { isoDateSchema } from './fields.ts';

export const actionQueueQuerySchema = z.object({
  /** One category only (the items still carry all of theirs). */
  category: z.enum(ACTION_TYPES).optional(),
  /** One prescriber's items (an HCP id of the user's practices). */
  prescriber: z.uuid({ message: 'prescriber must be a prescriber id.' }).optional(),
  /** One practice's items (a practice the user belongs to). */
  practice: z.uuid({ message: 'practice must be a practice id.' }).optional(),
});
export type ActionQueueQuery = z.infer<typeof actionQueueQuerySchema>;

const instant = z.string().describe("A UTC instant, 'YYYY-MM-DD HH:mm:ssZ' (decision 0026).");

/** One prescription that needs the user, with what a prescriber looks up before deciding. */
export const actionQueueItemSchema = z.object({
  id: z.string(),
  patient: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), dob: z.string() }),
  prescriber: z.object({ id: z.string(), name: z.string(), role: z.string() }),
  practice: z.object({ id: z.string(), name: z.string() }),
  // The fields the categories are derived from (spec §4), as in the Action Needed answer.
  needsRefillAuth: z.boolean(),
  phoneException: z.boolean(),
  substitutionStatus: z.string().nullable(),
  priorAuthStatus: z.string().nullable(),
  priorAuthMethod: z.enum(PRIOR_AUTH_METHODS).nullable(),
  hcpActionRequired: z.boolean(),
  drugName: z.string(),
  strength: z.string().nullable(),
  prescribedNdc: z.string().nullable(),
  dispensedNdc: z.string().nullable(),
  quantity: z.number().int().nullable(),
  daysSupply: z.number().int().nullable(),
  refills: z.number().int(),
  sig: z.string().nullable(),
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
  /** Alternatives the pharmacy offers, for an item waiting on an alternative-medication choice. */
  alternativeMeds: z.array(z.string()),
  /** When the request reached the portal (the order among items that run out on the same day). */
  waitingSince: instant,
});
export type ActionQueueItem = z.infer<typeof actionQueueItemSchema>;

export const actionQueueResponseSchema = z.object({
  /** The server's day the run-out days were counted from. */
  today: isoDateSchema,
  items: z.array(actionQueueItemSchema),
});
export type ActionQueueResponse = z.infer<typeof actionQueueResponseSchema>;
