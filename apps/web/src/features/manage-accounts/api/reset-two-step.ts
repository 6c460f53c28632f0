import { accountSchema, accountsApiPaths } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /api/mdo/v1/accounts/{id}/reset-mfa: forgets remembered devices and pending codes. */
export const resetTwoStep = (id: string) =>
  api.request(accountsApiPaths.accountResetMfa(id), { method: 'POST', schema: accountSchema });

export const useResetTwoStep = () => useMutation({ mutationFn: resetTwoStep });
