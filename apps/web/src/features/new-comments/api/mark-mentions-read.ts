import { apiPaths, officeMentionsResponseSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { commentThreadQueryKey } from './get-comment-thread.ts';
import { newCommentsQueryKey } from './get-new-comments.ts';

/** PUT /api/mdo/v1/users/{userId}/office-mentions: marks the mentions read (idempotent). */
export const markMentionsRead = (userId: string, mentionIds: string[]) =>
  api.request(apiPaths.officeMentions(userId), { method: 'PUT', body: { mentionIds }, schema: officeMentionsResponseSchema });

export function useMarkMentionsRead(userId: string, patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mentionIds: string[]) => markMentionsRead(userId, mentionIds),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: newCommentsQueryKey(userId) }),
        queryClient.invalidateQueries({ queryKey: commentThreadQueryKey(patientId) }),
      ]);
    },
  });
}
