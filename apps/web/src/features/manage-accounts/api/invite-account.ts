import { type AccountInvite, accountSchema, accountsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { accountsKeys } from './search-accounts.ts';

/** POST /api/mdo/v1/accounts: the invited person gets an e-mail with a link to choose a password. */
export const inviteAccount = (input: AccountInvite) =>
  api.request(accountsApiPaths.accounts, { method: 'POST', body: input, schema: accountSchema });

export function useInviteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKeys.all }),
  });
}
