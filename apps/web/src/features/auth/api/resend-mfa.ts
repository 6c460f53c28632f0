import { apiPaths, DASHBOARD, statusOkSchema } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /auth-service/mfa/resend: a new code for the same user token; earlier codes stop working. */
export function resendMfa(userToken: string) {
  return api.request(apiPaths.mfaResend, {
    method: 'POST',
    auth: false,
    body: { authToken: userToken, dashboard: DASHBOARD },
    schema: statusOkSchema,
  });
}

export const useResendMfa = () => useMutation({ mutationFn: resendMfa });
