import { type IntegrationClientInput, integrationClientSchema, integrationsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { integrationClientsKeys } from './get-integration-clients.ts';

/** POST /api/mdo/v1/integration-clients: register a pharmacy system; the answer carries its client id. */
export const createIntegrationClient = (input: IntegrationClientInput) =>
  api.request(integrationsApiPaths.integrationClients, { method: 'POST', body: input, schema: integrationClientSchema });

export function useCreateIntegrationClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createIntegrationClient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationClientsKeys.all }),
  });
}
