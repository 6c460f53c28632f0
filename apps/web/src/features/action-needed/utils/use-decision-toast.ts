/**
 * Says a decision was made, with Undo for as long as the server holds it (issue 22): a toast with an Undo button
 * that lasts the window, and the `u` key on the list views, which undoes the newest decision still in its window.
 * The offer is kept outside React: the detail page that made the decision is gone by the time the list's `u` runs.
 */
import { normalizeError, type UndoOffer, type UndoResult, undoMsLeft } from '@hcp/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toast } from 'sonner';
import { byFocusKey, focusWhenReady } from '../../../lib/focus.ts';
import { undoAndRefresh } from '../api/undo-decision.ts';

/** What a decision does beyond the portal: a postponement tells the pharmacy nothing. */
export interface DecisionKind {
  toPharmacy?: boolean;
}

let newest: UndoOffer | null = null;
const toastIdOf = (offer: UndoOffer) => `decision-${offer.requestId}`;

/** The newest decision of this tab that can still be undone, if any. */
export function undoableDecision(now = Date.now()): UndoOffer | null {
  return newest && undoMsLeft(newest, now) > 0 ? newest : null;
}

/** Forgets the offer (tests; sign-out). */
export function forgetDecision(): void {
  newest = null;
}

/** What the user reads after an undo: all back, or how many and why the others stay decided. */
export function undoneText(result: UndoResult): string {
  const total = result.undone + result.refused;
  if (result.refused === 0) {
    return total === 1
      ? 'Undone. Nothing was sent to the pharmacy.'
      : `Undone: ${total} items are back. Nothing was sent to the pharmacy.`;
  }
  const reasons = [...new Set(result.results.flatMap((r) => (r.status === 'refused' && r.reason ? [r.reason] : [])))];
  return `Undone ${result.undone} of ${total}; ${result.refused} stay decided: ${reasons.join(' ')}`;
}

export function useDecisionToast() {
  const queryClient = useQueryClient();

  const undo = useCallback(
    async (offer: UndoOffer) => {
      if (newest?.requestId === offer.requestId) newest = null;
      // The decision's toast (and its Undo) makes way for what the undo says.
      const id = toastIdOf(offer);
      toast.loading('Undoing…', { id, description: undefined, action: undefined, duration: Number.POSITIVE_INFINITY });
      try {
        const result = await undoAndRefresh(queryClient, offer);
        toast.success(undoneText(result), { id, duration: 6000 });
        // Focus goes to the first item that came back, in whichever list shows it (the one focus rule).
        const back = result.results.find((r) => r.status === 'undone');
        if (back) focusWhenReady(() => byFocusKey(back.id), { fallback: () => null });
      } catch (error) {
        toast.error(normalizeError(error).message, { id, duration: 8000 });
      }
    },
    [queryClient],
  );

  /** The toast after a decision; with an offer, it carries Undo until the window ends. */
  const announce = useCallback(
    (message: string, offer?: UndoOffer, { toPharmacy = true }: DecisionKind = {}) => {
      const left = offer ? undoMsLeft(offer, Date.now()) : 0;
      if (!offer || left === 0) {
        toast.success(message);
        return;
      }
      newest = offer;
      toast.success(message, {
        id: toastIdOf(offer),
        // A postponement sends nothing (its dialog says so): the toast must not say it goes to the pharmacy.
        description: toPharmacy
          ? `Goes to the pharmacy in ${Math.ceil(left / 1000)} s unless you undo it (Undo, or the u key).`
          : `You can undo it for ${Math.ceil(left / 1000)} s (Undo, or the u key). Nothing is sent to the pharmacy.`,
        duration: left,
        action: {
          label: 'Undo',
          onClick: (event) => {
            event.preventDefault(); // the toast stays, to say how the undo went
            void undo(offer);
          },
        },
      });
    },
    [undo],
  );

  /** The `u` key: undoes the newest decision still in its window, or says there is none. */
  const undoNewest = useCallback(() => {
    const offer = undoableDecision();
    if (offer) void undo(offer);
    else toast('Nothing to undo: a decision can be undone only until it goes to the pharmacy.');
  }, [undo]);

  return { announce, undoNewest };
}
