import { apiPaths, DASHBOARD, passkeyOptionsSchema, type Tokens, tokensSchema } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { signWithPasskey } from '../../../lib/webauthn.ts';

/**
 * The second step by a passkey (issue 48): this sign-in's options (POST /auth-service/mfa/passkey-options), the
 * browser's ceremony, then POST /mfa with the signed answer.
 */
export async function signInWithPasskey({ userToken, rememberMe }: { userToken: string; rememberMe: boolean }): Promise<Tokens> {
  const { options } = await api.request(apiPaths.mfaPasskeyOptions, {
    method: 'POST',
    auth: false,
    body: { authToken: userToken },
    schema: passkeyOptionsSchema,
  });
  const passkey = await signWithPasskey(options);
  return api.request(apiPaths.mfa, {
    method: 'POST',
    auth: false,
    body: { authToken: userToken, method: 'passkey', passkey, dashboard: DASHBOARD, rememberMe },
    schema: tokensSchema,
  });
}

export const useSignInWithPasskey = () => useMutation({ mutationFn: signInWithPasskey });
