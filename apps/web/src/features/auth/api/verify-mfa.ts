import { apiPaths, DASHBOARD, type Tokens, tokensSchema } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface VerifyMfaInput {
  userToken: string;
  mfaCode: string;
  rememberMe: boolean;
}

/** POST /mfa of the auth service: the stored user token and the mailed code (spec §3). */
export function verifyMfa({ userToken, mfaCode, rememberMe }: VerifyMfaInput): Promise<Tokens> {
  return api.request(apiPaths.mfa, {
    method: 'POST',
    auth: false,
    body: { authToken: userToken, mfaCode, dashboard: DASHBOARD, rememberMe },
    schema: tokensSchema,
  });
}

export function useVerifyMfa() {
  return useMutation({ mutationFn: verifyMfa });
}
