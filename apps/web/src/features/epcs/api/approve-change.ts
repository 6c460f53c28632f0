import { epcsApiPaths, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { completeStepUp, type StepUpEntry } from '../../../lib/step-up.ts';
import { epcsKeys } from './get-epcs.ts';

/** POST epcs-changes/{id}/approve: the second person, a registrant, confirms the registration was checked. */
export function useApproveChange(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ changeId, entry }: { changeId: string; entry: StepUpEntry }) =>
      api.request(epcsApiPaths.approveEpcsChange(changeId), {
        method: 'POST',
        body: { registrationVerified: true, stepUp: await completeStepUp(userId, entry) },
        schema: statusOkSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: epcsKeys.all }),
  });
}
