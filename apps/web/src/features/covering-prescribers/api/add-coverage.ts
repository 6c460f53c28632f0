import { type CoverageInput, coverageApiPaths, coverageSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST users/{id}/coverage: a prescriber covers for a colleague from the first moment up to the last. */
export const addCoverage = ({ userId, input }: { userId: string; input: CoverageInput }) =>
  api.request(coverageApiPaths.coverage(userId), { method: 'POST', body: input, schema: coverageSchema });

export function useAddCoverage(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CoverageInput) => addCoverage({ userId, input }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
