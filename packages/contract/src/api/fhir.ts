/**
 * The portal's FHIR R4 vocabulary (issue 19): the code systems a pharmacy uses to put work in, shared by the
 * server's mapping, the pharmacy simulator and the docs. One Task code per Action Needed category.
 */
import type { ActionType, SUBSTITUTION_PENDING_STATUSES } from '../rules/action-types.ts';

export const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
export const NDC_SYSTEM = 'http://hl7.org/fhir/sid/ndc';
/** Our own identifier of a practice, for pharmacies that keep it. */
export const PRACTICE_ID_SYSTEM = 'urn:hcp-portal:practice';
/** What a Task asks of the prescriber. */
export const TASK_CODE_SYSTEM = 'urn:hcp-portal:task-code';
/** The named inputs of a Task (PA status and method, alternatives offered, the wrong phone…). */
export const TASK_INPUT_SYSTEM = 'urn:hcp-portal:task-input';

export const TASK_CODES = ['refill-request', 'prior-authorization', 'substitution', 'phone-exception', 'appeal'] as const;
export type TaskCode = (typeof TASK_CODES)[number];

export const TASK_CODE_CATEGORY: Record<TaskCode, ActionType> = {
  'refill-request': 'refillAuth',
  'prior-authorization': 'priorAuth',
  substitution: 'altMed',
  'phone-exception': 'phoneException',
  appeal: 'appeals',
};

export const TASK_INPUTS = [
  'pa-status',
  'pa-method',
  'substitution-reason',
  'alternative',
  'wrong-phone',
  'payer',
  'denial-reason',
  'denial-date',
  'what-is-needed',
  'clinical-notes-required',
  // What a prescriber decides from (issue 22): the last fill, the refills left, an approved PA's end.
  'last-fill-date',
  'refills-remaining',
  'pa-expires',
] as const;
export type TaskInputCode = (typeof TASK_INPUTS)[number];

/** A substitution Task's `substitution-reason` input, and the pending status it opens on the prescription. */
export const TASK_SUBSTITUTION_REASONS: Record<string, (typeof SUBSTITUTION_PENDING_STATUSES)[number]> = {
  'patient-request': 'SUBSTITUTION_PENDING_MD_SELECTION_PATIENT_REQUEST',
  'prior-auth': 'SUBSTITUTION_PENDING_MD_SELECTION_PRIOR_AUTH',
  'high-cost': 'SUBSTITUTION_PENDING_MD_SELECTION_HIGH_COST',
  other: 'SUBSTITUTION_PENDING_MD_SELECTION_OTHER',
};

/** What the portal answers in a Task's output: the appeal link and key (given once, in the answer that created them). */
export const TASK_OUTPUT_SYSTEM = 'urn:hcp-portal:task-output';
export const TASK_OUTPUTS = [
  'appeal-link',
  'appeal-key',
  'appeal-expires',
  'appeal-status',
  // A decision delivered to the pharmacy (issue 20):
  'channel',
  'refills',
  'sig',
  'denial-reason',
  'postponed-until',
  'alternative',
  'no-substitute',
  'icd10-tried-and-failed',
  'corrected-phone',
  'attachment',
  // A controlled substance signed with EPCS (issue 48, decision 0059): the content as signed (RFC 8785 JSON) and
  // its Ed25519 signature, verifiable by the key set at /api/epcs/keys.
  'epcs-signed-content',
  'epcs-signature',
] as const;

/** The extension on an `epcs-signature` output naming the key (its RFC 7638 thumbprint in /api/epcs/keys). */
export const EPCS_KEY_ID_EXTENSION = 'urn:hcp-portal:epcs-key-id';

/** Task statuses a pharmacy may send: open ones raise the item, closing ones take it off the prescriber's desk. */
export const TASK_OPEN_STATUSES = ['requested', 'received', 'accepted', 'ready', 'in-progress', 'on-hold'] as const;
export const TASK_CLOSING_STATUSES = ['cancelled', 'entered-in-error'] as const;
/** A pharmacy completes its own Task once the prescriber answered it: its acknowledgment ("received by the pharmacy"). */
export const TASK_ACKNOWLEDGED_STATUS = 'completed';
export const TASK_INBOUND_STATUSES = [...TASK_OPEN_STATUSES, ...TASK_CLOSING_STATUSES, TASK_ACKNOWLEDGED_STATUS] as const;
export type TaskInboundStatus = (typeof TASK_INBOUND_STATUSES)[number];
