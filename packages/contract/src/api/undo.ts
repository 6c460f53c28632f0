/**
 * Undo (issue 22, our addition; decision 0030): a prescriber's decision is held for a few seconds before the
 * pharmacy hears of it, and may be taken back meanwhile by the user who made it.
 */
import { z } from 'zod';

/** How long a decision is held by default; the server's UNDO_WINDOW_SECONDS may change it (0: no undo). */
export const UNDO_WINDOW_SECONDS = 10;

/** Given with a decision that can be undone: the call's request id, and until when (an ISO 8601 instant). */
export const undoOfferSchema = z.object({ requestId: z.string(), until: z.string() });
export type UndoOffer = z.infer<typeof undoOfferSchema>;

/** Why an item of a decision could not be undone, in words for the user. */
export const UNDO_REFUSALS = {
  alreadyUndone: 'Already undone.',
  tooLate: 'Too late to undo: the pharmacy has been told.',
  changed: 'Changed since the decision: open it to decide again.',
  notFound: 'Prescription not found.',
} as const;

/** POST /decisions/{requestId}/undo: each item of the decision, undone or left as decided with the reason. */
export const undoResultSchema = z.object({
  undone: z.number().int(),
  refused: z.number().int(),
  results: z.array(
    z.object({
      id: z.string(),
      status: z.enum(['undone', 'refused']),
      reason: z.string().optional(),
    }),
  ),
});
export type UndoResult = z.infer<typeof undoResultSchema>;

/** Milliseconds left of an offer at `now` (0 when over): what a toast counts down from. */
export function undoMsLeft(offer: UndoOffer, now: number): number {
  return Math.max(0, Date.parse(offer.until) - now);
}
