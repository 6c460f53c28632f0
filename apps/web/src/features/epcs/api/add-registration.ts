import { type DeaRegistrationInput, deaRegistrationSchema, epcsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { epcsKeys } from './get-epcs.ts';

/** POST users/{id}/epcs/registrations: a DEA registration of the prescriber's own. */
export const addRegistration = (userId: string, body: DeaRegistrationInput) =>
  api.request(epcsApiPaths.deaRegistrations(userId), { method: 'POST', body, schema: deaRegistrationSchema });

export function useAddRegistration(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeaRegistrationInput) => addRegistration(userId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: epcsKeys.all }),
  });
}
