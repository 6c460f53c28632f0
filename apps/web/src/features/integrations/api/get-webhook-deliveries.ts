import { integrationsApiPaths, type WebhookDeliveryStatus, webhookDeliveryListSchema } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhookKeys } from './get-webhook-endpoints.ts';

export const DELIVERIES_PAGE_SIZE = 25;

/** GET …/deliveries: one endpoint's deliveries, newest first, by status. */
export const getWebhookDeliveries = (id: string, status: WebhookDeliveryStatus | undefined, page: number, signal?: AbortSignal) =>
  api.request(integrationsApiPaths.webhookDeliveries(id, { ...(status && { status }), page, pageSize: DELIVERIES_PAGE_SIZE }), {
    schema: webhookDeliveryListSchema,
    signal,
  });

export const webhookDeliveriesQueryOptions = (id: string, status: WebhookDeliveryStatus | undefined, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id, status, page),
    queryFn: ({ signal }) => getWebhookDeliveries(id, status, page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

export const useWebhookDeliveries = (id: string, status: WebhookDeliveryStatus | undefined, page: number) =>
  useQuery(webhookDeliveriesQueryOptions(id, status, page));
