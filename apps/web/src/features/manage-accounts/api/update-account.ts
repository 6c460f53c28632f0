import { type AccountUpdate, accountSchema, accountsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { accountsKeys } from './search-accounts.ts';

/** PUT /api/mdo/v1/accounts/{id}: role, two-step verification, disabled. */
export const updateAccount = (id: string, input: AccountUpdate) =>
  api.request(accountsApiPaths.account(id), { method: 'PUT', body: input, schema: accountSchema });

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: AccountUpdate }) => updateAccount(id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKeys.all }),
  });
}
