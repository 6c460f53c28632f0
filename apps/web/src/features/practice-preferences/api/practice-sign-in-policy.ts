import { epcsApiPaths, practiceSignInPolicySchema } from '@hcp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const key = (practiceId: string) => ['practice-sign-in-policy', practiceId] as const;

/** GET practices/{id}/sign-in-policy (decision 0060): whether the practice requires a strong factor of its people. */
export const practiceSignInPolicyQueryOptions = (practiceId: string) =>
  queryOptions({
    queryKey: key(practiceId),
    queryFn: ({ signal }) =>
      api.request(epcsApiPaths.practiceSignInPolicy(practiceId), { schema: practiceSignInPolicySchema, signal }),
  });

export const usePracticeSignInPolicy = (practiceId: string) => useQuery(practiceSignInPolicyQueryOptions(practiceId));

/** PUT practices/{id}/sign-in-policy: its prescribers (or the provider's admin) change it. */
export function useSetPracticeSignInPolicy(practiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (strongFactorRequired: boolean) =>
      api.request(epcsApiPaths.practiceSignInPolicy(practiceId), {
        method: 'PUT',
        body: { strongFactorRequired },
        schema: practiceSignInPolicySchema,
      }),
    onSuccess: (saved) => queryClient.setQueryData(key(practiceId), saved),
  });
}
