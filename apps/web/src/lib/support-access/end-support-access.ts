import { apiPaths, isSupportAccessState } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, guardCheck } from '../api-client.ts';

/** DELETE users/{id}/support-access: ends the window now. */
export const endSupportAccess = (userId: string) =>
  api.request(apiPaths.supportAccess(userId), { method: 'DELETE', schema: guardCheck(isSupportAccessState) });

export function useEndSupportAccess(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => endSupportAccess(userId),
    // The practice's patient data leaves this page's memory, not only the screen.
    onSuccess: () => queryClient.resetQueries(),
  });
}
