import { integrationsApiPaths, type WebhookEndpointUpdate, webhookEndpointSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhookKeys } from './get-webhook-endpoints.ts';

/** PATCH /api/mdo/v1/webhook-endpoints/{id}: address, events, description, on or off. */
export const updateWebhookEndpoint = ({ id, ...change }: WebhookEndpointUpdate & { id: string }) =>
  api.request(integrationsApiPaths.webhookEndpoint(id), { method: 'PATCH', body: change, schema: webhookEndpointSchema });

export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
