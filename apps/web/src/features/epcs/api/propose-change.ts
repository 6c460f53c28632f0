import { epcsApiPaths, epcsChangeEnteredSchema, type ProposeEpcsChange } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { completeStepUp, type StepUpEntry } from '../../../lib/step-up.ts';
import { epcsKeys } from './get-epcs.ts';

/** POST epcs-changes: one person enters a grant or a revocation (with two factors); a second must approve it. */
export const proposeChange = (body: ProposeEpcsChange) =>
  api.request(epcsApiPaths.epcsChanges, { method: 'POST', body, schema: epcsChangeEnteredSchema });

export function useProposeChange(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ entry, ...change }: Omit<ProposeEpcsChange, 'stepUp'> & { entry: StepUpEntry }) =>
      proposeChange({ ...change, stepUp: await completeStepUp(userId, entry) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: epcsKeys.all }),
  });
}
