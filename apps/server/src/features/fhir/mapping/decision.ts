/**
 * A prescriber's decision as the pharmacy hears it (issue 20): a FHIR R4 message Bundle whose MessageHeader names
 * the event and points at the Task the decision answers (the pharmacy's own Task when it sent one, else a Task
 * made for the decision), or, for a new prescription, its MedicationRequest. The same module family as the
 * inbound mapping, so a Task reads the same both ways.
 */
import {
  ACTION_TYPE_LABELS,
  type ActionType,
  DECISION_SYSTEM,
  TASK_CODE_SYSTEM,
  WEBHOOK_EVENT_SYSTEM,
  type WebhookEvent,
} from '@hcp/contract';
import type { Bundle, MedicationRequest, Task } from '@medplum/fhirtypes';
import { answeredTask, type DecisionFacts, outputOf } from './answer.ts';
import { CODE_OF_CATEGORY, type TaskRow, toTask } from './task.ts';

/** The Action Needed category a decision answers (a new prescription answers none). */
export const CATEGORY_OF_EVENT: Record<WebhookEvent, ActionType | null> = {
  'refill.authorized': 'refillAuth',
  'refill.denied': 'refillAuth',
  'refill.postponed': 'refillAuth',
  'alternative.chosen': 'altMed',
  'prior-authorization.dismissed': 'priorAuth',
  'prior-authorization.signature-received': 'priorAuth',
  'prior-authorization.chart-notes-sent': 'priorAuth',
  'phone.corrected': 'phoneException',
  'appeal.submitted': 'appeals',
  'prescription.created': null,
};

export interface Decision extends DecisionFacts {
  /** The outbox row: the decision's identity (its Task's identifier when the pharmacy sent no Task). */
  id: string;
  prescriptionId: string;
  patientId: string;
  prescriberId: string;
}

/** An appeal's attachment as the pharmacy fetches it: an expiring link, its type, size and what it is. */
export interface LinkedAttachment {
  url: string;
  contentType: string;
  size: number;
  title: string;
  creation: string;
}

/**
 * The Task the decision answers: the pharmacy's own (same id and identifiers) or one made for it, as the decision
 * left it (answer.ts: the same mapping a read of the Task answers with); an appeal's attachments become `attachment`
 * outputs.
 */
export function decisionTask(decision: Decision, answered: TaskRow | null, attachments: LinkedAttachment[] = []): Task {
  const category = CATEGORY_OF_EVENT[decision.event] ?? 'refillAuth';
  // The pharmacy's Task as it stood before any decision: this message says what this decision did, whatever came after.
  const base: Task = answered
    ? toTask({ ...answered, decision: null })
    : {
        resourceType: 'Task',
        identifier: [{ system: DECISION_SYSTEM, value: decision.id }],
        status: 'completed',
        intent: 'order',
        code: {
          coding: [{ system: TASK_CODE_SYSTEM, code: CODE_OF_CATEGORY[category] }],
          text: ACTION_TYPE_LABELS[category].request,
        },
        focus: { reference: `MedicationRequest/${decision.prescriptionId}` },
        for: { reference: `Patient/${decision.patientId}` },
        owner: { reference: `Practitioner/${decision.prescriberId}` },
        authoredOn: decision.at.toISOString(),
      };
  const task = answeredTask(base, decision);
  const output = [...(task.output ?? []), ...attachments.map((file) => outputOf('attachment', { valueAttachment: file }))];
  return { ...task, lastModified: decision.at.toISOString(), ...(output.length ? { output } : {}) };
}

/**
 * The webhook body: a FHIR message Bundle. `messageId` is the webhook-id, so the Bundle and the request carry the
 * same identity on every retry.
 */
export function decisionMessage(decision: Decision, messageId: string, focus: Task | MedicationRequest, baseUrl: string): Bundle {
  const fullUrl = (r: Task | MedicationRequest) =>
    r.id ? `${baseUrl}/fhir/R4/${r.resourceType}/${r.id}` : `urn:uuid:${decision.id}`;
  return {
    resourceType: 'Bundle',
    id: messageId,
    type: 'message',
    timestamp: decision.at.toISOString(),
    entry: [
      {
        fullUrl: `urn:uuid:${messageId}`,
        resource: {
          resourceType: 'MessageHeader',
          id: messageId,
          eventCoding: { system: WEBHOOK_EVENT_SYSTEM, code: decision.event },
          source: { name: 'HCP Portal', endpoint: `${baseUrl}/fhir/R4` },
          focus: [{ reference: fullUrl(focus) }],
        },
      },
      { fullUrl: fullUrl(focus), resource: focus },
    ],
  };
}
