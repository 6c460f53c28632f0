import { apiPaths, rxCommentResponseSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { commentThreadQueryKey } from './get-comment-thread.ts';

/** POST /api/mdo/v1/users/{userId}/rx-comment: a reply on the patient's thread. */
export const postReply = (userId: string, input: { patientId: string; comment: string }) =>
  api.request(apiPaths.rxComment(userId), { method: 'POST', body: input, schema: rxCommentResponseSchema });

export function usePostReply(userId: string, patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (comment: string) => postReply(userId, { patientId, comment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commentThreadQueryKey(patientId) }),
  });
}
