/**
 * Undo's rules (issue 22, decision 0030): how long a decision is held, why an item could not be undone, and what a
 * toast counts down from. Apart from api/undo.ts (the wire shapes, zod) so a first screen's toast needs no zod.
 */
import type { UndoOffer } from '../api/undo.ts';

/** How long a decision is held by default; the server's UNDO_WINDOW_SECONDS may change it (0: no undo). */
export const UNDO_WINDOW_SECONDS = 10;

/** Why an item of a decision could not be undone, in words for the user. */
export const UNDO_REFUSALS = {
  alreadyUndone: 'Already undone.',
  tooLate: 'Too late to undo: the pharmacy has been told.',
  changed: 'Changed since the decision: open it to decide again.',
  notFound: 'Prescription not found.',
} as const;

/** Milliseconds left of an offer at `now` (0 when over): what a toast counts down from. */
export function undoMsLeft(offer: UndoOffer, now: number): number {
  return Math.max(0, Date.parse(offer.until) - now);
}
