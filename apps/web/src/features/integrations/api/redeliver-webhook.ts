import { integrationsApiPaths, webhookDeliverySchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhookKeys } from './get-webhook-endpoints.ts';

/** POST …/deliveries/{deliveryId}/redeliver: the same message (same webhook-id), now. */
export const redeliverWebhook = ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
  api.request(integrationsApiPaths.webhookRedelivery(endpointId, deliveryId), {
    method: 'POST',
    body: {},
    schema: webhookDeliverySchema,
  });

export function useRedeliverWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliverWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
