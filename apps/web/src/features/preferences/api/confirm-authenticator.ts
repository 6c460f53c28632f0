import { apiPaths, type ConfirmAuthenticator, recoveryCodesSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { signInFactorsQueryOptions } from './get-sign-in-factors.ts';

/** POST …/authenticator-app/confirm: a code from the new app makes it the factor; answers the recovery codes, once. */
export const confirmAuthenticator = (userId: string, body: ConfirmAuthenticator) =>
  api.request(apiPaths.confirmAuthenticatorApp(userId), { method: 'POST', body, schema: recoveryCodesSchema });

export function useConfirmAuthenticator(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfirmAuthenticator) => confirmAuthenticator(userId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInFactorsQueryOptions(userId).queryKey }),
  });
}
