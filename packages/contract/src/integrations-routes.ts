/**
 * The API paths of integration clients and webhooks (decision 0022): apart from `apiPaths`, which the first screen's
 * script carries, so that only Manage Integrations downloads them (issue 21's budget).
 */
import { API_BASE } from './routes.ts';

const enc = encodeURIComponent;

export const integrationsApiPaths = {
  integrationClients: `${API_BASE}/v1/integration-clients`,
  integrationClient: (id: string) => `${API_BASE}/v1/integration-clients/${enc(id)}`,
  webhookEndpoints: `${API_BASE}/v1/webhook-endpoints`,
  webhookEndpoint: (id: string) => `${API_BASE}/v1/webhook-endpoints/${enc(id)}`,
  webhookSecretRotation: (id: string) => `${API_BASE}/v1/webhook-endpoints/${enc(id)}/rotate-secret`,
  webhookDeliveries: (id: string, query: { status?: string; page: number; pageSize: number }) =>
    `${API_BASE}/v1/webhook-endpoints/${enc(id)}/deliveries?${query.status ? `status=${enc(query.status)}&` : ''}page=${query.page}&pageSize=${query.pageSize}`,
  webhookRedelivery: (id: string, deliveryId: string) =>
    `${API_BASE}/v1/webhook-endpoints/${enc(id)}/deliveries/${enc(deliveryId)}/redeliver`,
  webhookRedeliverFailed: (id: string) => `${API_BASE}/v1/webhook-endpoints/${enc(id)}/redeliver-failed`,
} as const;
