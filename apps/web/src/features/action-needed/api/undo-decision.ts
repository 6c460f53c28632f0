import { apiPaths, type UndoOffer } from '@hcp/contract';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { asOwnChange } from '../../../lib/own-changes.ts';
import { readSession } from '../../../lib/storage.ts';
import { actionNeededQueryKey } from './get-action-needed.ts';

/** POST /api/mdo/v1/decisions/{requestId}/undo (issue 22): takes a decision back within its window. */
export const undoDecision = (offer: UndoOffer) =>
  api.request(apiPaths.undoDecision(offer.requestId), {
    method: 'POST',
    schema: () => import('./answer-schemas.ts').then((m) => m.undoResultSchema),
  });

/**
 * Undoes, then refreshes Action Needed and the timelines (the items are back). Called from a toast that outlives
 * the screen that made the decision (a detail page goes back to the list at once), so it needs no mounted hook.
 */
export function undoAndRefresh(queryClient: QueryClient, offer: UndoOffer) {
  // The items coming back are the user's own doing: the live announcer must not call them new (issue 47).
  return asOwnChange(async () => {
    try {
      return await undoDecision(offer);
    } finally {
      const userId = readSession()?.userId;
      await Promise.all([
        userId ? queryClient.invalidateQueries({ queryKey: actionNeededQueryKey(userId) }) : null,
        queryClient.invalidateQueries({ queryKey: ['prescription-events'] }),
      ]);
    }
  });
}
