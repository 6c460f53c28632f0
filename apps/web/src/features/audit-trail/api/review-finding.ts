import { auditApiPaths, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST audit-trail/findings/review: clears an unusual-access finding, once, with a note. */
export function useReviewFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, note }: { key: string; note: string }) =>
      api.request(auditApiPaths.findingReview, { method: 'POST', body: { key, note }, schema: statusOkSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['audit-trail', 'unusual-access'] }),
  });
}
