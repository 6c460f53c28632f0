import { integrationsApiPaths, redeliverResultSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhookKeys } from './get-webhook-endpoints.ts';

/** POST …/redeliver-failed: every dead delivery of the endpoint goes again. */
export const redeliverFailedWebhooks = (endpointId: string) =>
  api.request(integrationsApiPaths.webhookRedeliverFailed(endpointId), {
    method: 'POST',
    body: {},
    schema: redeliverResultSchema,
  });

export function useRedeliverFailedWebhooks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeliverFailedWebhooks,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}
