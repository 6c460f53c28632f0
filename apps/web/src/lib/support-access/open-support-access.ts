import { apiPaths, type SupportAccessOpen, supportAccessGrantSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';

/** POST users/{id}/support-access: a read-only window on one practice, with a reason. */
export const openSupportAccess = (userId: string, input: SupportAccessOpen) =>
  api.request(apiPaths.supportAccess(userId), { method: 'POST', body: input, schema: supportAccessGrantSchema });

export function useOpenSupportAccess(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SupportAccessOpen) => openSupportAccess(userId, input),
    // Every list now answers with the practice's patients: read them all again.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
