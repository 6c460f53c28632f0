import { apiPaths, DASHBOARD, type MfaMethod, type Tokens, tokensSchema } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface VerifyMfaInput {
  userToken: string;
  /** The mailed code, a code from the authenticator app, or a recovery code (issue 48). */
  method?: MfaMethod;
  mfaCode: string;
  rememberMe: boolean;
}

/**
 * POST /mfa of the auth service: the stored user token and the code (spec §3). A mailed code goes as the spec sends
 * it (no method); an app's code says so, and a recovery code travels as `recoveryCode`.
 */
export function verifyMfa({ userToken, method, mfaCode, rememberMe }: VerifyMfaInput): Promise<Tokens> {
  const code = method === 'recovery' ? { recoveryCode: mfaCode } : { mfaCode };
  return api.request(apiPaths.mfa, {
    method: 'POST',
    auth: false,
    body: {
      authToken: userToken,
      ...(method && method !== 'email' ? { method } : {}),
      ...code,
      dashboard: DASHBOARD,
      rememberMe,
    },
    schema: tokensSchema,
  });
}

export function useVerifyMfa() {
  return useMutation({ mutationFn: verifyMfa });
}
