import { apiPaths, type Reauthenticate, recoveryCodesSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { signInFactorsQueryOptions } from './get-sign-in-factors.ts';

/** POST …/recovery-codes, with the current password: ten new codes, shown once; the old ones stop working. */
export const newRecoveryCodes = (userId: string, body: Reauthenticate) =>
  api.request(apiPaths.recoveryCodes(userId), { method: 'POST', body, schema: recoveryCodesSchema });

export function useNewRecoveryCodes(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Reauthenticate) => newRecoveryCodes(userId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInFactorsQueryOptions(userId).queryKey }),
  });
}
