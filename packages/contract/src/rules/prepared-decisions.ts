/**
 * Prepare-then-sign (issue 23, docs/decisions/0039): who may prepare and who signs, and how a prepared decision reads.
 * Office staff and prescribers of the practice prepare; only a prescriber signs (the decision itself keeps its
 * signature rule, rules/clinical-access.ts).
 */
import { denialReasonInSentence, type PrescriptionAction } from './transitions.ts';

export const PREPARED_NOTE_MAX = 500;

/** The decisions that can be prepared for a signature (the signature actions of decision 0020). */
export const PREPARABLE_ACTIONS = [
  'refillAuthorizedFax',
  'refillAuthorizedErx',
  'refillDenied',
  'alternativeMed',
] as const satisfies readonly PrescriptionAction[];
export type PreparableAction = (typeof PREPARABLE_ACTIONS)[number];

/** One line saying what signing will send, e.g. "Authorize by fax: 3 refill(s), “Take 1 daily”". */
export function describePrepared(decision: {
  action: string;
  refills?: number;
  sig?: string;
  reason?: string;
  noSubstitute?: boolean;
  selectedAlternativeMed?: string | null;
}): string {
  switch (decision.action) {
    case 'refillAuthorizedFax':
      return `Authorize by fax: ${decision.refills ?? 0} refill(s), “${decision.sig ?? ''}”`;
    case 'refillAuthorizedErx':
      return 'Authorize by eRx';
    case 'refillDenied':
      return `Deny: ${denialReasonInSentence(decision.reason ?? '')}`;
    case 'alternativeMed':
      return decision.noSubstitute
        ? 'No substitution: dispense as prescribed'
        : `Alternative: ${decision.selectedAlternativeMed ?? ''}`;
    default:
      return decision.action;
  }
}

export const PREPARED_MESSAGES = {
  changed: 'It changed since it was prepared: open it to see what changed.',
  notPrepared: 'Nothing is prepared for this item any more.',
} as const;
