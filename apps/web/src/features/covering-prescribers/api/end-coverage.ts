import { coverageApiPaths, deletedSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** DELETE users/{id}/coverage/{coverageId}: the coverage ends now (kept on record). */
export const endCoverage = ({ userId, id }: { userId: string; id: string }) =>
  api.request(coverageApiPaths.coverageItem(userId, id), { method: 'DELETE', schema: deletedSchema });

export function useEndCoverage(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => endCoverage({ userId, id }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
