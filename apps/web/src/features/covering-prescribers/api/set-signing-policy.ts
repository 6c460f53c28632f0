import { coverageApiPaths, practiceSigningSchema, type SigningPolicyInput } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** PUT users/{id}/coverage/policy: who signs a practice's requests. */
export const setSigningPolicy = ({ userId, input }: { userId: string; input: SigningPolicyInput }) =>
  api.request(coverageApiPaths.signingPolicy(userId), { method: 'PUT', body: input, schema: practiceSigningSchema });

export function useSetSigningPolicy(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SigningPolicyInput) => setSigningPolicy({ userId, input }),
    // What each prescriber may sign changes on every screen (the user details carry it): refetch everything.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
