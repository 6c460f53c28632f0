import { apiPaths, type LoginResponse } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { storage } from '../../../lib/storage.ts';
import { signWithPasskey } from '../../../lib/webauthn.ts';

/**
 * Signing in by a passkey alone (issue 48): options naming no user (POST /auth-service/passkey-login/options), the
 * browser's ceremony (the key says whose it is), then POST /auth-service/passkey-login: answered as a password sign-in.
 */
export async function loginWithPasskey(): Promise<LoginResponse> {
  const { options } = await api.request(apiPaths.passkeyLoginOptions, {
    method: 'POST',
    auth: false,
    schema: () => import('./sign-in-schemas.ts').then((m) => m.passkeyOptionsSchema),
  });
  const passkey = await signWithPasskey(options);
  const rememberMeToken = storage.get('rememberMeToken') ?? undefined;
  return api.request(apiPaths.passkeyLogin, {
    method: 'POST',
    auth: false,
    body: { passkey, rememberMeToken },
    schema: () => import('./sign-in-schemas.ts').then((m) => m.loginResponseSchema),
  });
}

export const useLoginWithPasskey = () => useMutation({ mutationFn: loginWithPasskey });
