import type { ActionResult, UserDetails } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { rememberUserPreferences } from '../../../lib/current-user/get-user-details.ts';
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
  /** The user's own choices the call saved along with the action, to keep the cached user details true. */
  savedPreferences?: (input: Input) => Partial<UserDetails['mdOfficeUserPrefs']> | null,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (_result, input) => {
      const userId = readSession()?.userId;
      if (!userId) return;
      const prefs = savedPreferences?.(input);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: actionNeededQueryKey(userId) }),
        prefs ? rememberUserPreferences(queryClient, userId, prefs) : null,
      ]);
    },
    onError: (error, input) => {
      reportError(logName, { prescriptionId: input.prescriptionId ?? input.prescriptionIds?.join(','), error });
    },
  });
}

/** The send-confirmation choice a decision call carries (skipSendConfirmation), to keep the cached user true. */
export const savesSendChoice = (input: { skipSendConfirmation?: true | undefined }) =>
  input.skipSendConfirmation ? { skipSendConfirmation: true } : null;
