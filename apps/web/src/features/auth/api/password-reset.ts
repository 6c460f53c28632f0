import { apiPaths, RESET_SOURCE, statusOkSchema } from '@hcp/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /auth/user/reset-password (spec §3: email and source 'MD'). */
export function requestPasswordReset(email: string) {
  return api.request(apiPaths.resetPassword, {
    method: 'POST',
    auth: false,
    body: { email, source: RESET_SOURCE },
    schema: statusOkSchema,
  });
}
export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });

/** POST /auth/mdo/verify-password-token: valid answers ok, expired or used answers 410. */
export function verifyPasswordToken(token: string) {
  return api.request(apiPaths.verifyPasswordToken, { method: 'POST', auth: false, body: { token }, schema: statusOkSchema });
}
export const passwordTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['password-reset-token', token],
    queryFn: () => verifyPasswordToken(token),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
export const usePasswordToken = (token: string) => useQuery(passwordTokenQueryOptions(token));

/** PUT /api/mdo/v1/update-password: the new password for a reset token. */
export function updatePasswordByToken(input: { token: string; password: string }) {
  return api.request(apiPaths.updatePasswordByToken, { method: 'PUT', auth: false, body: input, schema: statusOkSchema });
}
export const useUpdatePasswordByToken = () => useMutation({ mutationFn: updatePasswordByToken });
