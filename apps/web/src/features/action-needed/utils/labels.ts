import type { ActionType } from '@hcp/contract';

/** Card groups of spec §3 by category (the filter's query value is the action type, or nothing for all). */
export const GROUP_OF_TYPE = {
  refillAuth: 'refillAuth',
  priorAuth: 'priorAuth',
  phoneException: 'phoneExceptions',
  altMed: 'altMeds',
  appeals: 'appeals',
} as const satisfies Record<ActionType, string>;

export const PRIOR_AUTH_STATUS_TEXT: Record<string, string> = {
  PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY: 'The pharmacy needs the prescriber’s signature',
  PRIOR_AUTH_CHART_NOTES_NEEDED: 'Chart notes are needed',
  PRIOR_AUTH_ICD10_NEEDED: 'An ICD-10 code is needed',
  PRIOR_AUTH_REQUIRED: 'A prior authorization is required',
  PRIOR_AUTH_RENEWAL_DUE:
    'The prior authorization expires soon and plans accept its renewal now: start the renewal with the plan, then dismiss this reminder',
};

export const SUBSTITUTION_REASON_TEXT: Record<string, string> = {
  SUBSTITUTION_PENDING_MD_SELECTION_PATIENT_REQUEST: 'The patient asked for an alternative',
  SUBSTITUTION_PENDING_MD_SELECTION_PRIOR_AUTH: 'The plan requires a prior authorization for this drug',
  SUBSTITUTION_PENDING_MD_SELECTION_HIGH_COST: 'The drug is costly for the patient',
  SUBSTITUTION_PENDING_MD_SELECTION_OTHER: 'The pharmacy proposes an alternative',
};

export const PRIOR_AUTH_METHOD_TEXT: Record<string, string> = {
  CMM_PA: 'CoverMyMeds',
  VERBAL_PA: 'by phone',
  WEBLINK_PA: 'through the plan’s web link',
};

/** Said while the queue's code or its answer is on the way: the route and the queue say the same, so nothing flickers. */
export const QUEUE_LOADING_TEXT = 'Loading the queue…';
