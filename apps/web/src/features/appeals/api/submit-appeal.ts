import { type AppealDraft, appealSchema, appealsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { appealFailure } from '../utils/appeal-failure.ts';
import { appealHeaders, keepLocalDraft } from './appeal-session.ts';
import { appealQueryKey } from './get-appeal.ts';
import { saveAppeal } from './save-appeal.ts';

/** POST appeal/{id}/submit, after saving the form's last values so the pharmacy gets what is on screen. */
export const submitAppeal = async (appealId: string, draft: AppealDraft) => {
  await saveAppeal(appealId, draft);
  return appealFailure(
    api.request(appealsApiPaths.appealSubmit(appealId), {
      method: 'POST',
      auth: false,
      headers: await appealHeaders(appealId),
      schema: appealSchema,
    }),
  );
};

export function useSubmitAppeal(appealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: AppealDraft) => submitAppeal(appealId, draft),
    onSuccess: async (appeal) => {
      keepLocalDraft(appealId, undefined);
      queryClient.setQueryData(appealQueryKey(appealId), appeal);
      // The appeals item of Action Needed (and its counts) changed for a signed-in prescriber.
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'appeal' });
    },
  });
}
