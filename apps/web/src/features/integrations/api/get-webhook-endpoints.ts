import { integrationsApiPaths, webhookEndpointListSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const webhookKeys = {
  all: ['webhook-endpoints'] as const,
  deliveries: (id: string, status: string | undefined, page: number) =>
    ['webhook-endpoints', id, 'deliveries', status ?? 'all', page] as const,
};

/** GET /api/mdo/v1/webhook-endpoints (issue 20, admins only): where decisions are delivered, with counts. */
export const getWebhookEndpoints = (signal?: AbortSignal) =>
  api.request(integrationsApiPaths.webhookEndpoints, { schema: webhookEndpointListSchema, signal });

export const webhookEndpointsQueryOptions = () =>
  // Counts move as deliveries go out: kept fresh while the screen is open.
  queryOptions({ queryKey: webhookKeys.all, queryFn: ({ signal }) => getWebhookEndpoints(signal), refetchInterval: 15_000 });

export const useWebhookEndpoints = () => useQuery(webhookEndpointsQueryOptions());
