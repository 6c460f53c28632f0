import { integrationClientListSchema, integrationsApiPaths } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const integrationClientsKeys = { all: ['integration-clients'] as const };

/** GET /api/mdo/v1/integration-clients (decision 0022, admins only). */
export const getIntegrationClients = (signal?: AbortSignal) =>
  api.request(integrationsApiPaths.integrationClients, { schema: integrationClientListSchema, signal });

export const integrationClientsQueryOptions = () =>
  queryOptions({ queryKey: integrationClientsKeys.all, queryFn: ({ signal }) => getIntegrationClients(signal) });

export const useIntegrationClients = () => useQuery(integrationClientsQueryOptions());
