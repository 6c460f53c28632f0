import { apiPaths, passkeyOptionsSchema, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { createPasskey } from '../../../lib/webauthn.ts';
import { signInFactorsQueryOptions } from './get-sign-in-factors.ts';

/**
 * A new passkey: the server's options (POST …/passkeys/options), the browser's ceremony, then the signed answer with
 * the name the person gave it (POST …/passkeys).
 */
export async function addPasskey(userId: string, name: string) {
  const { options } = await api.request(apiPaths.passkeyOptions(userId), { method: 'POST', schema: passkeyOptionsSchema });
  const credential = await createPasskey(options);
  return api.request(apiPaths.passkeys(userId), { method: 'POST', body: { name, credential }, schema: statusOkSchema });
}

export function useAddPasskey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => addPasskey(userId, name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: signInFactorsQueryOptions(userId).queryKey }),
  });
}
