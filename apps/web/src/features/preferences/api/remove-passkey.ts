import { apiPaths, type Reauthenticate, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { signInFactorsQueryOptions } from './get-sign-in-factors.ts';

/** POST …/passkeys/{id}/remove, with the current password. */
export const removePasskey = (userId: string, passkeyId: string, body: Reauthenticate) =>
  api.request(apiPaths.removePasskey(userId, passkeyId), { method: 'POST', body, schema: statusOkSchema });

export function useRemovePasskey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ passkeyId, ...body }: Reauthenticate & { passkeyId: string }) => removePasskey(userId, passkeyId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInFactorsQueryOptions(userId).queryKey }),
  });
}
