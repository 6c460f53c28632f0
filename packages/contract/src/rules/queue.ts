/**
 * The one queue of Action Needed (issue 22): every open item in order of urgency. The server sorts with
 * these rules and the screen words the badges with them, so the order and the words cannot disagree.
 */

import { needsPrescriberSignature } from './clinical-access.ts';
import { isActionAllowed, type PrescriptionAction, type TransitionState } from './transitions.ts';

const DAY_MS = 86_400_000;

/** Whole days from one ISO day (YYYY-MM-DD) to another; null when either is not a day. */
export function daysBetweenIsoDays(from: string, to: string): number | null {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b)) return null;
  return Math.round((b - a) / DAY_MS);
}

/**
 * Days until the patient runs out: last fill + days supply - today. Zero means the last day of supply is
 * today; below zero, out for that many days. Null when the pharmacy did not say when it last filled or
 * for how long.
 */
export function runOutInDays(lastFilledOn: string | null, daysSupply: number | null, todayIso: string): number | null {
  if (lastFilledOn === null || daysSupply === null) return null;
  const since = daysBetweenIsoDays(lastFilledOn, todayIso);
  return since === null ? null : daysSupply - since;
}

/** The queue's badge: "Out of medication" from the day the supply ends, else "Runs out in N days". */
export function runOutText(days: number | null): string | null {
  if (days === null) return null;
  if (days <= 0) return 'Out of medication';
  return `Runs out in ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** The days of medication the patient still has (never below zero). */
export function supplyLeftText(days: number | null): string {
  if (days === null) return 'Not reported';
  const left = Math.max(0, days);
  return `${left} ${left === 1 ? 'day' : 'days'}`;
}

export interface UrgencyFields {
  id: string;
  runOutInDays: number | null;
  /** When the request reached the portal: an instant the API writes as 'YYYY-MM-DD HH:mm:ssZ' (sorts as text). */
  waitingSince: string;
}

/**
 * Urgency order: the patient who runs out soonest first (unknown run-out after every known one), then the
 * request that has waited longest, then by id so the order is total and stable.
 */
export function compareUrgency(a: UrgencyFields, b: UrgencyFields): number {
  if (a.runOutInDays !== b.runOutInDays) {
    if (a.runOutInDays === null) return 1;
    if (b.runOutInDays === null) return -1;
    return a.runOutInDays - b.runOutInDays;
  }
  if (a.waitingSince !== b.waitingSince) return a.waitingSince < b.waitingSince ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The two views of Action Needed: the spec's patient cards (the default) and the one queue. */
export const ACTION_NEEDED_VIEWS = ['cards', 'queue'] as const;
export type ActionNeededViewName = (typeof ACTION_NEEDED_VIEWS)[number];
export const isActionNeededView = (value: unknown): value is ActionNeededViewName => value === 'cards' || value === 'queue';

/** How a refill authorization goes to the pharmacy: eRx where the practice chose it, else fax (the spec's default form). */
export const authorizeChannelOf = (prescribeVia: string | null, faxByRule?: string | null): 'erx' | 'fax' =>
  prescribeVia === 'eRx' && !faxByRule ? 'erx' : 'fax';

/**
 * The single-item action whose permission and state rule each bulk decision follows (transitions.ts), so the
 * screen offers an item for a bulk decision exactly when the server would take it.
 */
export const BULK_ACTION_RULE = {
  refillAuthorize: 'refillAuthorizedFax',
  refillDeny: 'refillDenied',
  refillPostpone: 'refillPostponed',
  priorAuthDismiss: 'priorAuthDismiss',
  mdSignatureReceived: 'mdSignatureReceived',
} as const satisfies Record<string, PrescriptionAction>;

/** The bulk decisions that are refill decisions: a controlled substance is never part of them. */
export const BULK_REFILL_ACTIONS: ReadonlySet<string> = new Set(['refillAuthorize', 'refillDeny', 'refillPostpone']);

/** What an item must tell for a bulk decision to know whether it takes the item. */
export interface BulkCandidate extends Omit<TransitionState, 'refillDue'> {
  /** As the queue answers it: a refill request due today (postponed ones only from their day). */
  needsRefillAuth: boolean;
  isControlled: boolean;
}

/** Why a bulk decision leaves an item out, as the confirmation lists it; null when it takes the item. */
export function bulkLeftOutReason(action: keyof typeof BULK_ACTION_RULE, item: BulkCandidate, signable = true): string | null {
  if (!isActionAllowed(BULK_ACTION_RULE[action], { ...item, refillDue: item.needsRefillAuth })) return 'not waiting for this';
  if (BULK_REFILL_ACTIONS.has(action) && item.isControlled) return 'controlled substance';
  // The practice keeps signing to the item's prescriber and whoever covers for them (decision 0041).
  if (!signable && needsPrescriberSignature(BULK_ACTION_RULE[action])) return 'signed by its prescriber or a colleague covering';
  return null;
}

/** The items a bulk decision takes, and those it leaves out with why (the server refuses the same ones). */
export function splitForBulk<T extends BulkCandidate>(
  action: keyof typeof BULK_ACTION_RULE,
  items: readonly T[],
  /** Whether the user may sign the item (`accessToItem`); every item by default. */
  signableOf: (item: T) => boolean = () => true,
) {
  const takes: T[] = [];
  const leftOut: { item: T; why: string }[] = [];
  for (const item of items) {
    const why = bulkLeftOutReason(action, item, signableOf(item));
    if (why) leftOut.push({ item, why });
    else takes.push(item);
  }
  return { takes, leftOut };
}

export const BULK_REFUSALS = {
  changed: 'It changed since the queue was loaded: open it to see what changed.',
  controlled: 'A controlled substance: decide it on its own page.',
  noSig: 'No directions (sig) on file: authorize it on its own page.',
} as const;

/** Two directions are the same sig when they read the same, whatever the case and spacing. */
export function sigKey(sig: string | null): string | null {
  const key = sig?.trim().replace(/\s+/g, ' ').toLowerCase();
  return key ? key : null;
}
