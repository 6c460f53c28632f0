import { apiPaths, type SignPreparedInput } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportError } from '../../../lib/error-reporting.ts';
import { readSession } from '../../../lib/storage.ts';
import { actionNeededQueryKey } from './get-action-needed.ts';

/** POST /api/mdo/v1/prepared-decisions/sign (issue 23): sign what staff prepared, answered item by item. */
export const signPrepared = (body: SignPreparedInput) =>
  api.request(apiPaths.signPrepared, {
    method: 'POST',
    body,
    schema: () => import('./answer-schemas.ts').then((m) => m.bulkActionResultSchema),
  });

/** Refreshes Action Needed whatever the items' outcomes: some were decided. */
export function useSignPrepared() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signPrepared,
    onSettled: async () => {
      const userId = readSession()?.userId;
      if (userId) await queryClient.invalidateQueries({ queryKey: actionNeededQueryKey(userId) });
    },
    onError: (error, input) => reportError('Sign Prepared Error', { count: input.items.length, error }),
  });
}
