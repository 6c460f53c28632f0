import { apiPaths, type BulkActionInput, bulkActionResultSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportError } from '../../../lib/error-reporting.ts';
import { readSession } from '../../../lib/storage.ts';
import { actionNeededQueryKey } from './get-action-needed.ts';

/** POST /api/mdo/v1/prescriptions/bulk-actions (issue 22): one decision on many items, answered item by item. */
export const bulkAction = (body: BulkActionInput) =>
  api.request(apiPaths.bulkActions, { method: 'POST', body, schema: bulkActionResultSchema });

/** Refreshes Action Needed (cards, queue and counts) whatever the items' outcomes: some were decided. */
export function useBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkAction,
    onSettled: async () => {
      const userId = readSession()?.userId;
      if (userId) await queryClient.invalidateQueries({ queryKey: actionNeededQueryKey(userId) });
    },
    onError: (error, input) => reportError('Bulk Action Error', { action: input.action, count: input.items.length, error }),
  });
}
