import { type AppealDraft, appealSchema, appealsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { appealFailure } from '../utils/appeal-failure.ts';
import { appealHeaders, keepLocalDraft } from './appeal-session.ts';
import { appealQueryKey } from './get-appeal.ts';

/** POST appeal/{id}/save: the whole draft (last write wins). `keepalive` lets a save on leaving finish. */
export const saveAppeal = async (appealId: string, draft: AppealDraft, options: { keepalive?: boolean } = {}) =>
  appealFailure(
    api.request(appealsApiPaths.appealSave(appealId), {
      method: 'POST',
      auth: false,
      headers: await appealHeaders(appealId),
      body: draft,
      schema: appealSchema,
      ...options,
    }),
  );

export function useSaveAppeal(appealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: AppealDraft) => saveAppeal(appealId, draft),
    onSuccess: (appeal, draft) => {
      queryClient.setQueryData(appealQueryKey(appealId), appeal);
      // The server has it now; a local copy only matters while it does not.
      if (JSON.stringify(draft) === JSON.stringify(appeal.draft)) keepLocalDraft(appealId, undefined);
    },
  });
}
