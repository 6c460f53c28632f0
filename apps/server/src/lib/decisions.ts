/**
 * A prescriber's decision, written once for every use case: the timeline event and, in the same transaction,
 * the outbox row the pharmacy hears of it from (its webhook event and, where the office's channel is fax or
 * eRx, that message). The webhook dispatcher (features/fhir/webhooks) turns outbox rows into deliveries.
 */
import { WEBHOOK_EVENT_OF_TIMELINE } from '@hcp/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { outbox, prescriptionEvents } from '../db/schema.ts';
import { notifyPracticeOfPrescription } from './live.ts';

/** NOTIFY channel that wakes the webhook workers of every instance when a decision commits. */
export const DECISIONS_CHANNEL = 'hcp_decisions';

export interface Decision {
  prescriptionId: string;
  /** The timeline event type (contract EVENT_TYPES). */
  type: string;
  actorUserId: string | null;
  requestId: string | null;
  /** What the timeline shows and the pharmacy's Task output carries. */
  data: Record<string, unknown>;
  /** How the office sends it, where it has a channel of its own (fax or eRx), with the message for it. */
  message?: { channel: 'fax' | 'erx'; recipient: string; payload: Record<string, unknown> };
  /**
   * Until when the decision is held before anything leaves (its undo window, issue 22), an SQL instant: the
   * outbox row is not dispatched before then, by any instance, across restarts. Absent: at once.
   */
  heldUntil?: SQL;
}

/** The end of a window that starts with this transaction (the database's clock, which the dispatcher reads). */
export const windowEndSql = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

/** Records the decision; answers its timeline event's id. */
export async function recordDecision(db: Executor, decision: Decision): Promise<number> {
  const [event] = await db
    .insert(prescriptionEvents)
    .values({
      prescriptionId: decision.prescriptionId,
      type: decision.type,
      actorUserId: decision.actorUserId,
      requestId: decision.requestId,
      data: decision.data,
    })
    .returning({ id: prescriptionEvents.id });
  const eventType = WEBHOOK_EVENT_OF_TIMELINE[decision.type] ?? null;
  // One statement tells the practice's open portals and, for a decision the pharmacy hears of, the webhook workers.
  await notifyPracticeOfPrescription(db, decision.prescriptionId, eventType ? DECISIONS_CHANNEL : undefined);
  if (!event) throw new Error('prescription event insert returned no row');
  if (!eventType && !decision.message) return event.id;
  await db.insert(outbox).values({
    channel: decision.message?.channel ?? 'webhook',
    prescriptionId: decision.prescriptionId,
    recipient: decision.message?.recipient ?? 'pharmacy',
    payload: decision.message?.payload ?? decision.data,
    status: 'pending',
    eventType,
    eventId: event.id,
    ...(decision.heldUntil ? { notBefore: decision.heldUntil } : {}),
  });
  return event.id;
}
