import { apiPaths, type UserPreferences, userDetailsSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { userDetailsQueryOptions } from '../../../lib/current-user/get-user-details.ts';

/** POST /api/mdo/v1/users/{id}/preferences: the answer is the updated user details, put straight in the cache. */
export const savePreferences = (userId: string, prefs: UserPreferences) =>
  api.request(apiPaths.userPreferences(userId), { method: 'POST', body: prefs, schema: userDetailsSchema });

export function useSavePreferences(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: UserPreferences) => savePreferences(userId, prefs),
    onSuccess: (details) => queryClient.setQueryData(userDetailsQueryOptions(userId).queryKey, details),
  });
}
