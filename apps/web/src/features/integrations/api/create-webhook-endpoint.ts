import { integrationsApiPaths, type WebhookEndpointInput, webhookEndpointWithSecretSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhookKeys } from './get-webhook-endpoints.ts';

/** POST /api/mdo/v1/webhook-endpoints: the answer carries the signing secret, this once. */
export const createWebhookEndpoint = (input: WebhookEndpointInput) =>
  api.request(integrationsApiPaths.webhookEndpoints, { method: 'POST', body: input, schema: webhookEndpointWithSecretSchema });

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
