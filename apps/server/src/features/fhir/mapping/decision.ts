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
  EVENT_TYPES,
  TASK_CODE_SYSTEM,
  WEBHOOK_EVENT_SYSTEM,
  type WebhookEvent,
} from '@hcp/contract';
import type { Bundle, MedicationRequest, Task, TaskOutput } from '@medplum/fhirtypes';
import { CODE_OF_CATEGORY, outputOf, type TaskRow, toTask } from './task.ts';

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

export interface Decision {
  /** The outbox row: the decision's identity (its Task's identifier when the pharmacy sent no Task). */
  id: string;
  event: WebhookEvent;
  /** The timeline event type (contract EVENT_TYPES): it says fax or eRx. */
  timelineType: string;
  /** The timeline event's data (contract EVENT_TYPES payloads). */
  data: Record<string, unknown>;
  at: Date;
  prescriptionId: string;
  patientId: string;
  prescriberId: string;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** What the decision says, as Task outputs (only what the pharmacy needs to act on it). */
function outputsOf({ event, data, timelineType }: Decision): TaskOutput[] {
  const out: TaskOutput[] = [];
  const add = (code: Parameters<typeof outputOf>[0], value: Omit<TaskOutput, 'type'> | undefined) => {
    if (value) out.push(outputOf(code, value));
  };
  const s = (v: unknown) => (str(v) ? { valueString: str(v) as string } : undefined);
  switch (event) {
    case 'refill.authorized':
      add('channel', { valueCode: timelineType === EVENT_TYPES.refillAuthorizedErx ? 'erx' : 'fax' });
      add('refills', int(data.refills) !== undefined ? { valueInteger: int(data.refills) as number } : undefined);
      add('sig', s(data.sig));
      break;
    case 'refill.denied':
      add('denial-reason', str(data.reason) ? { valueCode: str(data.reason) as string } : undefined);
      break;
    case 'refill.postponed':
      add('postponed-until', str(data.postponedTo) ? { valueDate: str(data.postponedTo) as string } : undefined);
      break;
    case 'alternative.chosen':
      add('alternative', s(data.selectedAlternativeMed));
      add('no-substitute', { valueBoolean: data.noSubstitute === true || !str(data.selectedAlternativeMed) });
      break;
    case 'prior-authorization.chart-notes-sent':
      add('icd10-tried-and-failed', { valueBoolean: data.isICD10TriedAndFailed === true });
      break;
    case 'phone.corrected':
      add('corrected-phone', s(data.phoneNumber));
      break;
    case 'appeal.submitted':
      add('appeal-status', { valueCode: 'submitted' });
      break;
    default:
      break;
  }
  return out;
}

/** denied -> rejected, postponed -> on-hold, the rest completed (FHIR Task status of the answered request). */
function statusOf(event: WebhookEvent): Task['status'] {
  if (event === 'refill.denied' || event === 'prior-authorization.dismissed') return 'rejected';
  if (event === 'refill.postponed') return 'on-hold';
  return 'completed';
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
 * The Task the decision answers: the pharmacy's own (same id and identifiers) or one made for it; an appeal's
 * attachments become `attachment` outputs.
 */
export function decisionTask(
  decision: Decision,
  answered: TaskRow | null,
  summary: string,
  attachments: LinkedAttachment[] = [],
): Task {
  const category = CATEGORY_OF_EVENT[decision.event] ?? 'refillAuth';
  const base: Task = answered
    ? toTask(answered)
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
  const output = [...(answered ? (base.output ?? []).filter((o) => o.type.coding?.[0]?.code === 'appeal-expires') : [])];
  output.push(...outputsOf(decision));
  for (const file of attachments) output.push(outputOf('attachment', { valueAttachment: file }));
  const note = str(decision.data.notes);
  return {
    ...base,
    status: statusOf(decision.event),
    businessStatus: { coding: [{ system: DECISION_SYSTEM, code: decision.event }], text: summary },
    lastModified: decision.at.toISOString(),
    executionPeriod: { end: decision.at.toISOString() },
    ...(output.length ? { output } : {}),
    ...(note ? { note: [{ text: note }] } : {}),
  };
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
