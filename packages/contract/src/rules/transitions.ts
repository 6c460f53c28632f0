/**
 * Which prescription action is allowed in which state (DESIGN §5), as one table both sides read: the
 * server answers 409 when a rule says no, the client offers only the actions a rule allows.
 */

import { needsAltMed, needsChartNotes, PRIOR_AUTH_ACTION_STATUSES, type RefillDenialReason } from './action-types.ts';
import { dayInZone } from './dates.ts';
import { addIsoDays } from './pa-renewal.ts';

export const PRESCRIPTION_ACTIONS = [
  'refillAuthorizedFax',
  'refillAuthorizedErx',
  'refillDenied',
  'refillPostponed',
  'alternativeMed',
  'priorAuthDismiss',
  'mdSignatureReceived',
  'chartNotesSent',
  'resolvePhoneException',
] as const;
export type PrescriptionAction = (typeof PRESCRIPTION_ACTIONS)[number];

/** The state a rule reads. `refillDue` is needsRefillAuth with any postponement already past (see isRefillDue). */
export interface TransitionState {
  refillDue: boolean;
  phoneException: boolean;
  substitutionStatus: string | null;
  priorAuthStatus: string | null;
}

const priorAuthAction: ReadonlySet<string> = new Set(PRIOR_AUTH_ACTION_STATUSES);
const refill = (rx: TransitionState) => rx.refillDue;

export const TRANSITION_RULES: Record<PrescriptionAction, (rx: TransitionState) => boolean> = {
  refillAuthorizedFax: refill,
  refillAuthorizedErx: refill,
  refillDenied: refill,
  refillPostponed: refill,
  alternativeMed: (rx) => needsAltMed({ ...rx, needsRefillAuth: false, hcpActionRequired: false, phoneException: false }),
  priorAuthDismiss: (rx) => rx.priorAuthStatus !== null && priorAuthAction.has(rx.priorAuthStatus),
  mdSignatureReceived: (rx) => rx.priorAuthStatus === 'PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY',
  chartNotesSent: (rx) => needsChartNotes(rx.priorAuthStatus),
  resolvePhoneException: (rx) => rx.phoneException,
};

export function isActionAllowed(action: PrescriptionAction, rx: TransitionState): boolean {
  return TRANSITION_RULES[action](rx);
}

/** What a 409 says when the prescription moved on (someone else acted, or the pharmacy changed it). */
export const CONFLICT_MESSAGES: Record<PrescriptionAction, string> = {
  refillAuthorizedFax: 'This prescription no longer needs a refill authorization.',
  refillAuthorizedErx: 'This prescription no longer needs a refill authorization.',
  refillDenied: 'This prescription no longer needs a refill authorization.',
  refillPostponed: 'This prescription no longer needs a refill authorization.',
  alternativeMed: 'This prescription no longer waits for an alternative medication choice.',
  priorAuthDismiss: 'A prior authorization of these prescriptions no longer needs action.',
  mdSignatureReceived: 'A prior authorization of these prescriptions no longer waits for the prescriber’s signature.',
  chartNotesSent: 'This prior authorization no longer needs chart notes.',
  resolvePhoneException: 'This patient no longer has a phone number exception.',
};

/** Statuses the transitions write (our design; the pharmacy system moves them on from there). */
export const RESULT_STATUSES = {
  mdSelected: 'SUBSTITUTION_MD_SELECTED',
  declinedByMd: 'SUBSTITUTION_DECLINED_BY_MD',
  signatureReceived: 'PRIOR_AUTH_MD_SIGNATURE_RECEIVED_PHARMACY',
  chartNotesSent: 'PRIOR_AUTH_CHART_NOTES_SENT',
  dismissed: 'PRIOR_AUTH_DISMISSED',
} as const;

/** How a refill denial's reason reads to a person (the deny form, the bulk and prepared decisions). */
export const DENIAL_REASON_LABELS: Record<RefillDenialReason, string> = {
  NEED_OFFICE_VISIT: 'The patient needs an office visit',
  NO_LONGER_TAKING_MEDS: 'The patient no longer takes this medication',
  POSTPONE_REFILL_AUTH: 'Postpone the refill authorization',
};

/** The reason inside a sentence: "Deny: the patient needs an office visit". */
export const denialReasonInSentence = (reason: string): string => {
  const label = DENIAL_REASON_LABELS[reason as RefillDenialReason] ?? reason;
  return label.charAt(0).toLowerCase() + label.slice(1);
};

/** Order status shown after a denial (DESIGN §5: "order status shows the denial"). */
export const DENIAL_ORDER_STATUS: Record<string, string> = {
  NEED_OFFICE_VISIT: 'Refill denied: office visit needed',
  NO_LONGER_TAKING_MEDS: 'Refill denied: no longer taking this medication',
  POSTPONE_REFILL_AUTH: 'Refill denied: postponed by the prescriber',
};

/** A refill request waits for the prescriber unless it was postponed to a later day. */
export function isRefillDue(needsRefillAuth: boolean, postponedUntil: string | null, todayIso: string): boolean {
  return needsRefillAuth && (postponedUntil === null || postponedUntil <= todayIso);
}

const AFTER_TODAY = 'Choose a date after today.';
const WITHIN_A_YEAR = 'Choose a date within one year.';

/** Postponing: a day after today and at most one year ahead (ISO dates compare as strings). */
export function postponeDateProblem(dateIso: string, todayIso: string): string | null {
  if (dateIso <= todayIso) return AFTER_TODAY;
  const [y, m, d] = todayIso.split('-').map(Number) as [number, number, number];
  const limit = `${String(y + 1).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (dateIso > limit) return WITHIN_A_YEAR;
  return null;
}

/**
 * The server's check of a postponement day at an instant (decision 0065). "Today" is the person's, in their own zone,
 * which the server does not know: measured by the server's own calendar, a New York prescriber's "tomorrow" was
 * refused after 19:00 on a UTC host. So the server refuses only a day that fails wherever the person may be: not after
 * today even where the date is earliest (UTC-12), or more than a year ahead even where it is latest (UTC+14). The page
 * holds the person to their own today (postponeDateProblem with the browser's day).
 */
export function postponeDateProblemAt(dateIso: string, at: Date): string | null {
  // POSIX zone names count the other way: Etc/GMT+12 is UTC-12.
  if (postponeDateProblem(dateIso, dayInZone('Etc/GMT+12', at)) === AFTER_TODAY) return AFTER_TODAY;
  return postponeDateProblem(dateIso, dayInZone('Etc/GMT-14', at)) === WITHIN_A_YEAR ? WITHIN_A_YEAR : null;
}

/** The quick choices beside a postponement's day (issue 47): in a week, in two weeks, in a month. */
export const POSTPONE_PRESET_DAYS = [7, 14, 30] as const;

/** Each quick choice as an ISO day counted from `todayIso` (every one passes postponeDateProblem). */
export function postponePresets(todayIso: string): { days: number; iso: string }[] {
  return POSTPONE_PRESET_DAYS.map((days) => ({ days, iso: addIsoDays(todayIso, days) }));
}
