/**
 * A prescriber's answer on a Task (issue 46 part 3), one mapping for both ways a pharmacy learns of it: the Task it
 * reads (`GET /Task`, a search, the answer to its own write) and the Task inside the webhook message. Both carry the
 * same status, businessStatus, outputs and dates, so a pharmacy polling its Tasks sees every decision exactly as the
 * webhook says it: a postponed refill waits `on-hold` until its day (`restriction.period.start`); every other answer
 * completes the Task with the decision in `output` and `businessStatus`.
 */
import {
  DECISION_SYSTEM,
  describeEvent,
  EPCS_KEY_ID_EXTENSION,
  EVENT_TYPES,
  TASK_OUTPUT_SYSTEM,
  type TASK_OUTPUTS,
  taskStatusAfterDecision,
  type WebhookEvent,
} from '@hcp/contract';
import type { Task, TaskOutput } from '@medplum/fhirtypes';
import { canonicalBytes } from '../../../lib/epcs-signature.ts';

/** What a decision said, as its timeline event and outbox row keep it. */
export interface DecisionFacts {
  event: WebhookEvent;
  /** The timeline event type (contract EVENT_TYPES): it says fax or eRx. */
  timelineType: string;
  /** The timeline event's data (contract EVENT_TYPES payloads). */
  data: Record<string, unknown>;
  at: Date;
}

export const outputOf = (code: (typeof TASK_OUTPUTS)[number], value: Omit<TaskOutput, 'type'>): TaskOutput => ({
  type: { coding: [{ system: TASK_OUTPUT_SYSTEM, code }] },
  ...value,
});

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** The signature's type: the author's (ASTM E1762-95, as FHIR's Signature.type names it). */
const AUTHOR_SIGNATURE = { system: 'urn:iso-astm:E1762-95:2013', code: '1.2.840.10065.1.12.1.1', display: "Author's Signature" };

/**
 * A controlled substance signed with EPCS (issue 48): the signed content as its exact bytes (RFC 8785 JSON) and the
 * Ed25519 signature over them, with the key's id; nothing for any other decision. The signer is the application
 * (21 CFR 1311.120(b)(20)): the prescriber is in the content, with their DEA number.
 */
function epcsOutputs(epcs: unknown): TaskOutput[] {
  if (!epcs || typeof epcs !== 'object') return [];
  const { content, signature, keyId, signedAt } = epcs as Record<string, unknown>;
  if (!content || !str(signature) || !str(keyId) || !str(signedAt)) return [];
  return [
    outputOf('epcs-signed-content', {
      valueAttachment: { contentType: 'application/json', data: canonicalBytes(content).toString('base64') },
    }),
    outputOf('epcs-signature', {
      valueSignature: {
        type: [AUTHOR_SIGNATURE],
        when: signedAt as string,
        who: { display: 'HCP Portal EPCS' },
        targetFormat: 'application/json',
        sigFormat: 'application/octet-stream',
        data: Buffer.from(signature as string, 'base64url').toString('base64'),
        extension: [{ url: EPCS_KEY_ID_EXTENSION, valueString: keyId as string }],
      },
    }),
  ];
}

/** What the decision says, as Task outputs (only what the pharmacy needs to act on it). */
export function decisionOutputs({ event, data, timelineType }: DecisionFacts): TaskOutput[] {
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
      out.push(...epcsOutputs(data.epcs));
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

/** The outputs of a Task that belong to it, not to a decision (an appeal link's end), kept beside the answer's. */
const OWN_OUTPUTS = new Set(['appeal-expires']);

/**
 * The Task as the decision left it: the status the contract's table names for the decision, the decision in
 * businessStatus (the pharmacy's own once it wrote the Task again after the answer: `ownBusinessStatus`), its
 * outputs after the Task's own, when it was made, and for a postponement the day the request comes back.
 */
export function answeredTask(base: Task, decision: DecisionFacts, options: { ownBusinessStatus?: boolean } = {}): Task {
  const { event, data, at } = decision;
  const status = taskStatusAfterDecision(event);
  const output = [
    ...(base.output ?? []).filter((o) => OWN_OUTPUTS.has(o.type.coding?.[0]?.code ?? '')),
    ...decisionOutputs(decision),
  ];
  const postponedTo = event === 'refill.postponed' ? str(data.postponedTo) : undefined;
  const note = str(data.notes);
  const { restriction: _restriction, output: _output, executionPeriod: _period, ...rest } = base;
  return {
    ...rest,
    status,
    businessStatus:
      options.ownBusinessStatus && base.businessStatus
        ? base.businessStatus
        : { coding: [{ system: DECISION_SYSTEM, code: event }], text: describeEvent(decision.timelineType, data) },
    // A postponed request is not done: only an answer that completes the Task says when it ended.
    ...(status === 'completed' ? { executionPeriod: { end: at.toISOString() } } : {}),
    ...(postponedTo ? { restriction: { period: { start: postponedTo } } } : {}),
    ...(output.length ? { output } : {}),
    ...(note ? { note: [{ text: note }] } : {}),
  };
}
