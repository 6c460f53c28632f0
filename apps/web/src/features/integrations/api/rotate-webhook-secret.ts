import { integrationsApiPaths, webhookEndpointWithSecretSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhookKeys } from './get-webhook-endpoints.ts';

/** POST …/rotate-secret: a new secret, answered once; the previous one keeps signing for a day. */
export const rotateWebhookSecret = (id: string) =>
  api.request(integrationsApiPaths.webhookSecretRotation(id), {
    method: 'POST',
    body: {},
    schema: webhookEndpointWithSecretSchema,
  });

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
