import { epcsApiPaths, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { epcsKeys } from './get-epcs.ts';

/** POST epcs-changes/{id}/decline: the change waiting for approval does not happen. */
export const declineChange = (changeId: string) =>
  api.request(epcsApiPaths.declineEpcsChange(changeId), { method: 'POST', schema: statusOkSchema });

export function useDeclineChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: declineChange,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: epcsKeys.all }),
  });
}
