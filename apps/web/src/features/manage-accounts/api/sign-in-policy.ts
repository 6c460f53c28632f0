import { epcsApiPaths, type TenantSignInPolicy, tenantSignInPolicySchema } from '@hcp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET sign-in-policy (decision 0060): whether every user must have a strong factor, and whether mailed codes stand in. */
export const getSignInPolicy = (signal?: AbortSignal) =>
  api.request(epcsApiPaths.tenantSignInPolicy, { schema: tenantSignInPolicySchema, signal });

export const signInPolicyQueryOptions = () =>
  queryOptions({ queryKey: ['sign-in-policy'] as const, queryFn: ({ signal }) => getSignInPolicy(signal) });

export const useSignInPolicy = () => useQuery(signInPolicyQueryOptions());

/** PUT sign-in-policy: the provider's admin changes it for the whole tenant. */
export function useSetSignInPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TenantSignInPolicy) =>
      api.request(epcsApiPaths.tenantSignInPolicy, { method: 'PUT', body, schema: tenantSignInPolicySchema }),
    onSuccess: (saved) => queryClient.setQueryData(signInPolicyQueryOptions().queryKey, saved),
  });
}
