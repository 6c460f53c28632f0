/**
 * Outbound pharmacy integration (issue 20): every prescriber decision is delivered to the endpoints a tenant's
 * admin registered, as a Standard Webhooks request whose body is a FHIR R4 message Bundle. Calls of our design
 * (docs/decisions/0024).
 */
import { z } from 'zod';
import { EVENT_TYPES } from '../rules/events.ts';
import { singleLineSchema } from './fields.ts';
import { ref } from './references.ts';

/** What a pharmacy can subscribe to: one name per kind of decision. */
export const WEBHOOK_EVENTS = [
  'refill.authorized',
  'refill.denied',
  'refill.postponed',
  'alternative.chosen',
  'prior-authorization.dismissed',
  'prior-authorization.signature-received',
  'prior-authorization.chart-notes-sent',
  'phone.corrected',
  'appeal.submitted',
  'prescription.created',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const isWebhookEvent = (value: string): value is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(value);

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'refill.authorized': 'Refill authorized',
  'refill.denied': 'Refill denied',
  'refill.postponed': 'Refill postponed',
  'alternative.chosen': 'Alternative medication chosen (or no substitution)',
  'prior-authorization.dismissed': 'Prior authorization dismissed',
  'prior-authorization.signature-received': 'Prior authorization: prescriber signature received',
  'prior-authorization.chart-notes-sent': 'Prior authorization: chart notes sent',
  'phone.corrected': 'Patient phone number corrected',
  'appeal.submitted': 'Appeal submitted',
  'prescription.created': 'New prescription',
};

/** The decision a timeline event records, as the pharmacy hears it (events not listed are not decisions). */
export const WEBHOOK_EVENT_OF_TIMELINE: Partial<Record<string, WebhookEvent>> = {
  [EVENT_TYPES.refillAuthorizedFax]: 'refill.authorized',
  [EVENT_TYPES.refillAuthorizedErx]: 'refill.authorized',
  [EVENT_TYPES.refillDenied]: 'refill.denied',
  [EVENT_TYPES.refillPostponed]: 'refill.postponed',
  [EVENT_TYPES.alternativeMedSelected]: 'alternative.chosen',
  [EVENT_TYPES.alternativeMedDeclined]: 'alternative.chosen',
  [EVENT_TYPES.priorAuthDismissed]: 'prior-authorization.dismissed',
  [EVENT_TYPES.mdSignatureReceived]: 'prior-authorization.signature-received',
  [EVENT_TYPES.chartNotesSent]: 'prior-authorization.chart-notes-sent',
  [EVENT_TYPES.phoneExceptionResolved]: 'phone.corrected',
  [EVENT_TYPES.appealSubmitted]: 'appeal.submitted',
  [EVENT_TYPES.prescribed]: 'prescription.created',
};

/** The code system of the event in the message's MessageHeader.eventCoding. */
export const WEBHOOK_EVENT_SYSTEM = 'urn:hcp-portal:event';
/** The code system of a decision Task's businessStatus. */
export const DECISION_SYSTEM = 'urn:hcp-portal:decision';

/** Retries: exponential back-off with full jitter, capped, for a day; then the delivery is dead-lettered. */
export const WEBHOOK_RETRY = { baseMs: 10_000, capMs: 3_600_000, giveUpMs: 86_400_000, timeoutMs: 10_000 } as const;
/** After a rotation the previous secret keeps signing (beside the new one) for a day. */
export const WEBHOOK_SECRET_OVERLAP_MS = 86_400_000;
/**
 * An appeal message links each attachment for a week (the message is retried for a day at most, and the pharmacy
 * fetches on receipt): GET with the link's own expiry and signature, no session.
 */
export const APPEAL_FILE_LINK_DAYS = 7;
export const APPEAL_FILE_LINK_PATH = '/api/pharmacy/v1/appeal-files/:fileId';
export const appealFileLinkQuerySchema = z.object({
  expires: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 40),
  signature: z.string().min(1).max(100),
});

/**
 * The delay before retry number `attempt` (1 = the first retry): base x 2^(attempt-1), capped, times a random
 * factor in [0.5, 1] so that receivers coming back up are not hit by every sender at once.
 */
export function retryDelayMs(attempt: number, random: number, limits: { baseMs: number; capMs: number } = WEBHOOK_RETRY) {
  const ceiling = Math.min(limits.capMs, limits.baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  return Math.round(ceiling * (0.5 + Math.min(1, Math.max(0, random)) / 2));
}

const webhookUrl = z
  .url({ protocol: /^https?$/, message: 'Give the full address, such as https://pharmacy.example.com/hooks.' })
  .max(2000, { message: 'The address is too long.' });

export const webhookEndpointInputSchema = z.object({
  url: webhookUrl,
  description: singleLineSchema(200, 'Keep the description under 200 characters.').optional(),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { message: 'Unknown event.' }))
    .min(1, { message: 'Choose at least one event.' })
    .max(WEBHOOK_EVENTS.length),
});
export type WebhookEndpointInput = z.infer<typeof webhookEndpointInputSchema>;

export const webhookEndpointUpdateSchema = z
  .object({
    url: webhookUrl.optional(),
    description: singleLineSchema(200, 'Keep the description under 200 characters.').optional(),
    events: webhookEndpointInputSchema.shape.events.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change.' });
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

export const WEBHOOK_DISABLED_REASONS = ['admin', 'gone'] as const;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** Why it is off: turned off by an admin, or the receiver answered 410 Gone. */
  disabledReason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  createdAt: z.string(),
  /** Until when the previous secret still signs, after a rotation. */
  previousSecretValidUntil: z.string().nullable(),
  counts: z.object({ waiting: z.number().int(), failing: z.number().int(), dead: z.number().int(), delivered: z.number().int() }),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointListSchema = z.object({ records: z.array(webhookEndpointSchema) });

/** Creating an endpoint or rotating its secret: the only answers that carry the secret. */
export const webhookEndpointWithSecretSchema = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['waiting', 'sending', 'failing', 'delivered', 'dead'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  failing: 'Failing, will retry',
  delivered: 'Delivered',
  dead: 'Failed (gave up)',
};

export const webhookDeliverySchema = z.object({
  /** The webhook-id header: the same on every retry, so the receiver can drop duplicates. */
  id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  prescriptionId: z.string().nullable(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The receiver's last HTTP status, or null when it did not answer. */
  lastStatus: z.number().int().nullable(),
  /** What went wrong last, in words (never the receiver's body). */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryQuerySchema = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export const webhookDeliveryListSchema = z.object({ records: z.array(webhookDeliverySchema), total: z.number().int() });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

const endpointId = ref('webhookEndpoint', z.uuid({ message: 'Webhook endpoint not found.' }));
export const webhookEndpointParamsSchema = z.object({ id: endpointId });
export const webhookDeliveryParamsSchema = z.object({
  id: endpointId,
  deliveryId: ref('webhookDelivery', z.uuid({ message: 'Delivery not found.' }), { of: 'id' }),
});
export const redeliverResultSchema = z.object({ redelivered: z.number().int() });
