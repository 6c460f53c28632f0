import { auditApiPaths, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST audit-trail/support-windows/{id}/review: marks a window reviewed, once, with a note. */
export function useReviewSupportWindow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ windowId, note }: { windowId: string; note: string }) =>
      api.request(auditApiPaths.supportWindowReview(windowId), { method: 'POST', body: { note }, schema: statusOkSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['audit-trail', 'support-windows'] }),
  });
}
