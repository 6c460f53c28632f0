import { apiPaths, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { signInFactorsQueryOptions } from './get-sign-in-factors.ts';

/** POST …/passkeys/{id}/rename: the name its owner knows it by. */
export const renamePasskey = (userId: string, passkeyId: string, name: string) =>
  api.request(apiPaths.renamePasskey(userId, passkeyId), { method: 'POST', body: { name }, schema: statusOkSchema });

export function useRenamePasskey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ passkeyId, name }: { passkeyId: string; name: string }) => renamePasskey(userId, passkeyId, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInFactorsQueryOptions(userId).queryKey }),
  });
}
