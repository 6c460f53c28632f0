import { apiPaths, type Reauthenticate, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { signInFactorsQueryOptions } from './get-sign-in-factors.ts';

/** POST …/authenticator-app/remove, with the current password: the app and its recovery codes go. */
export const removeAuthenticator = (userId: string, body: Reauthenticate) =>
  api.request(apiPaths.removeAuthenticatorApp(userId), { method: 'POST', body, schema: statusOkSchema });

export function useRemoveAuthenticator(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Reauthenticate) => removeAuthenticator(userId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInFactorsQueryOptions(userId).queryKey }),
  });
}
