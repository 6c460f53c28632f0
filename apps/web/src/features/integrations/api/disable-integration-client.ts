import { integrationClientSchema, integrationsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { integrationClientsKeys } from './get-integration-clients.ts';

/** DELETE /api/mdo/v1/integration-clients/{id}: the client gets no new token from now on. */
export const disableIntegrationClient = (id: string) =>
  api.request(integrationsApiPaths.integrationClient(id), { method: 'DELETE', schema: integrationClientSchema });

export function useDisableIntegrationClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableIntegrationClient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationClientsKeys.all }),
  });
}
