import type { ActionResult } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reportError } from '../../../lib/error-reporting.ts';
import { readSession } from '../../../lib/storage.ts';
import { actionNeededQueryKey } from './get-action-needed.ts';

/**
 * The shared behaviour of every prescription action (spec §8): on success the action-needed list is
 * refetched (the item leaves it, counts update); on failure the error is reported under the action's
 * log name with the prescription id and returned to the screen, which shows it.
 */
export function usePrescriptionAction<Input extends { prescriptionId?: string; prescriptionIds?: string[] }>(
  mutationFn: (input: Input) => Promise<ActionResult>,
  logName: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      const userId = readSession()?.userId;
      if (userId) await queryClient.invalidateQueries({ queryKey: actionNeededQueryKey(userId) });
    },
    onError: (error, input) => {
      reportError(logName, { prescriptionId: input.prescriptionId ?? input.prescriptionIds?.join(','), error });
    },
  });
}
