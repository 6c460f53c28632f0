/** Prescription timeline entries (prescription_events.type) and how each reads to a person. */
import { ACTION_TYPE_LABELS, isActionType } from './action-types.ts';
import { formatApiDate } from './dates.ts';
import { PA_RENEWAL_LEAD_DAYS } from './pa-renewal.ts';
import { describePrepared } from './prepared-decisions.ts';
import { answeredByRuleText, routedByRuleText } from './standing-rules.ts';

export const EVENT_TYPES = {
  received: 'RECEIVED',
  prescribed: 'PRESCRIBED',
  appealSubmitted: 'APPEAL_SUBMITTED',
  refillAuthorizedFax: 'REFILL_AUTHORIZED_FAX',
  refillAuthorizedErx: 'REFILL_AUTHORIZED_ERX',
  refillDenied: 'REFILL_DENIED',
  refillPostponed: 'REFILL_POSTPONED',
  alternativeMedSelected: 'ALTERNATIVE_MED_SELECTED',
  alternativeMedDeclined: 'ALTERNATIVE_MED_DECLINED',
  priorAuthDismissed: 'PRIOR_AUTH_DISMISSED',
  mdSignatureReceived: 'PRIOR_AUTH_MD_SIGNATURE_RECEIVED',
  chartNotesSent: 'PRIOR_AUTH_CHART_NOTES_SENT',
  phoneExceptionResolved: 'PHONE_EXCEPTION_RESOLVED',
  /** A pharmacy's system put a request in through the FHIR API (data.category: the Action Needed category). */
  pharmacyRequested: 'PHARMACY_REQUESTED',
  pharmacyWithdrew: 'PHARMACY_WITHDREW',
  /** The pharmacy completed its Task after the prescriber answered it (issue 20). */
  pharmacyAcknowledged: 'PHARMACY_ACKNOWLEDGED',
  /** Staff prepared a decision for the prescriber's signature (issue 23): data is the prepared decision. */
  decisionPrepared: 'DECISION_PREPARED',
  /** The prepared decision was taken back before it was signed. */
  preparationWithdrawn: 'DECISION_PREPARATION_WITHDRAWN',
  /** The practice's PA lapses soon and plans accept the renewal now (issue 23): data.expiresOn. */
  priorAuthRenewalDue: 'PRIOR_AUTH_RENEWAL_DUE',
  /** An "always send by fax" standing rule routes the refill authorization by fax (issue 23): data.rule {id, name}. */
  refillRoutedByRule: 'REFILL_ROUTED_BY_RULE',
  /** A decision taken back within its undo window (issue 22): data.undoneType and data.undoneData say which. */
  decisionUndone: 'DECISION_UNDONE',
} as const;

const DENIAL_TEXT: Record<string, string> = {
  NEED_OFFICE_VISIT: 'office visit needed',
  NO_LONGER_TAKING_MEDS: 'patient no longer takes this medication',
  POSTPONE_REFILL_AUTH: 'postponed',
};

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * One line per event; never includes free-text notes (they can hold patient details) beyond what the user typed.
 * A decision signed as someone prepared it says so (issue 23).
 */
export function describeEvent(type: string, data: Record<string, unknown>): string {
  const text = describeEventText(type, data);
  return typeof data.preparedBy === 'string' && data.preparedBy ? `${text} — prepared by ${data.preparedBy}` : text;
}

function describeEventText(type: string, data: Record<string, unknown>): string {
  switch (type) {
    case EVENT_TYPES.received:
      return 'Prescription received by the pharmacy';
    case EVENT_TYPES.appealSubmitted:
      return 'Appeal submitted by the prescriber';
    case EVENT_TYPES.prescribed:
      return `Prescribed in the HCP Portal and sent by ${str(data.via) === 'Fax' ? 'fax' : 'eRx'}`;
    case EVENT_TYPES.refillAuthorizedFax:
      return `Refill authorized by fax: ${String(data.refills ?? 0)} refill(s)`;
    case EVENT_TYPES.refillAuthorizedErx:
      return 'Refill authorized by eRx';
    case EVENT_TYPES.refillDenied: {
      const denied = `Refill denied: ${DENIAL_TEXT[str(data.reason)] ?? str(data.reason)}`;
      const rule = typeof data.rule === 'object' && data.rule !== null ? (data.rule as { name?: unknown }) : null;
      return rule ? `${denied} — ${answeredByRuleText(str(rule.name))}` : denied;
    }
    case EVENT_TYPES.refillRoutedByRule: {
      const rule = typeof data.rule === 'object' && data.rule !== null ? (data.rule as { name?: unknown }) : {};
      return routedByRuleText(str(rule.name));
    }
    case EVENT_TYPES.refillPostponed:
      return `Refill authorization postponed to ${str(data.postponedTo)}`;
    case EVENT_TYPES.alternativeMedSelected:
      return `Alternative medication chosen: ${str(data.selectedAlternativeMed)}`;
    case EVENT_TYPES.alternativeMedDeclined:
      return 'No substitution: dispense as prescribed';
    case EVENT_TYPES.priorAuthDismissed:
      return 'Prior authorization dismissed';
    case EVENT_TYPES.mdSignatureReceived:
      return 'Prior authorization: prescriber signature received';
    case EVENT_TYPES.chartNotesSent:
      return data.isICD10TriedAndFailed === true
        ? 'Prior authorization: chart notes sent (ICD-10 alternatives tried and failed)'
        : 'Prior authorization: chart notes sent';
    case EVENT_TYPES.phoneExceptionResolved:
      return 'Patient phone number corrected';
    case EVENT_TYPES.pharmacyAcknowledged:
      return 'Received by the pharmacy';
    case EVENT_TYPES.decisionPrepared:
      return `Prepared for the prescriber’s signature: ${describePrepared(data as Parameters<typeof describePrepared>[0])}`;
    case EVENT_TYPES.preparationWithdrawn:
      return 'Prepared decision withdrawn';
    case EVENT_TYPES.priorAuthRenewalDue:
      return `Prior authorization expires on ${formatApiDate(str(data.expiresOn))}: renew it now (plans accept renewals from ${PA_RENEWAL_LEAD_DAYS} days before)`;
    case EVENT_TYPES.decisionUndone: {
      const undone = typeof data.undoneData === 'object' && data.undoneData !== null ? data.undoneData : {};
      return `Undone: ${describeEventText(str(data.undoneType), undone as Record<string, unknown>)} (nothing was sent to the pharmacy)`;
    }
    case EVENT_TYPES.pharmacyRequested:
    case EVENT_TYPES.pharmacyWithdrew: {
      const category = str(data.category);
      const what = isActionType(category) ? ACTION_TYPE_LABELS[category].request : 'Request';
      return `${what} ${type === EVENT_TYPES.pharmacyRequested ? 'requested' : 'withdrawn'} by the pharmacy`;
    }
    default:
      return type
        .toLowerCase()
        .replaceAll('_', ' ')
        .replace(/^\w/, (c) => c.toUpperCase());
  }
}

/**
 * How a decision's delivery to the pharmacy's system reads on the timeline (issue 20); `time` formats an instant
 * in the reader's zone.
 */
export function describeDelivery(
  delivery: {
    status: 'sending' | 'delivered' | 'failing' | 'dead';
    sentAt: string;
    deliveredAt: string | null;
    nextAttemptAt: string | null;
  },
  time: (iso: string) => string,
): string {
  const sent = `Sent to the pharmacy ${time(delivery.sentAt)}`;
  switch (delivery.status) {
    case 'delivered':
      return `${sent} · delivered ${time(delivery.deliveredAt ?? delivery.sentAt)}`;
    case 'failing':
      return delivery.nextAttemptAt
        ? `${sent} · delivery failing, next try ${time(delivery.nextAttemptAt)}`
        : `${sent} · delivery failing`;
    case 'dead':
      return `${sent} · delivery failed; an administrator can send it again`;
    default:
      return `${sent} · sending`;
  }
}

/** A decision held for its undo window (issue 22), as the timeline reads it; `time` formats in the reader's zone. */
export function describeHold(heldUntil: string, time: (iso: string) => string): string {
  return `Held: goes to the pharmacy at ${time(heldUntil)} unless undone`;
}
