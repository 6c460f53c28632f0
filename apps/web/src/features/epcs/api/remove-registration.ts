import { epcsApiPaths, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { epcsKeys } from './get-epcs.ts';

/** POST users/{id}/epcs/registrations/{registrationId}/remove (kept on record: what was signed under it). */
export const removeRegistration = (userId: string, registrationId: string) =>
  api.request(epcsApiPaths.removeDeaRegistration(userId, registrationId), { method: 'POST', schema: statusOkSchema });

export function useRemoveRegistration(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (registrationId: string) => removeRegistration(userId, registrationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: epcsKeys.all }),
  });
}
