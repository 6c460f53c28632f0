/** Webhook endpoints and deliveries (admins of the tenant): /api/mdo/v1/webhook-endpoints… */
import {
  redeliverResultSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookEndpointInputSchema,
  webhookEndpointListSchema,
  webhookEndpointParamsSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookEndpointWithSecretSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInContext } from '../../../lib/route-helpers.ts';
import type { WebhookEndpoints } from './endpoints.ts';

export const webhookRoutes: FastifyPluginAsyncZod<{ endpoints: WebhookEndpoints }> = async (app, { endpoints }) => {
  const tags = ['webhooks'];
  const base = '/api/mdo/v1/webhook-endpoints';
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };

  app.get(base, { onRequest: app.requireAuth, schema: { tags, response: { 200: webhookEndpointListSchema } } }, async (request) =>
    endpoints.list(signedInContext(request)),
  );
  app.post(
    base,
    { ...write, schema: { tags, body: webhookEndpointInputSchema, response: { 201: webhookEndpointWithSecretSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await endpoints.create(signedInContext(request), request.body));
    },
  );
  app.patch(
    `${base}/:id`,
    {
      ...write,
      schema: {
        tags,
        params: webhookEndpointParamsSchema,
        body: webhookEndpointUpdateSchema,
        response: { 200: webhookEndpointSchema },
      },
    },
    async (request) => endpoints.update(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    `${base}/:id/rotate-secret`,
    { ...write, schema: { tags, params: webhookEndpointParamsSchema, response: { 200: webhookEndpointWithSecretSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return endpoints.rotateSecret(signedInContext(request), request.params.id);
    },
  );
  app.get(
    `${base}/:id/deliveries`,
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: webhookEndpointParamsSchema,
        querystring: webhookDeliveryQuerySchema,
        response: { 200: webhookDeliveryListSchema },
      },
    },
    async (request) => endpoints.deliveries(signedInContext(request), request.params.id, request.query),
  );
  app.post(
    `${base}/:id/deliveries/:deliveryId/redeliver`,
    { ...write, schema: { tags, params: webhookDeliveryParamsSchema, response: { 200: webhookDeliverySchema } } },
    async (request) => endpoints.redeliver(signedInContext(request), request.params.id, request.params.deliveryId),
  );
  app.post(
    `${base}/:id/redeliver-failed`,
    { ...write, schema: { tags, params: webhookEndpointParamsSchema, response: { 200: redeliverResultSchema } } },
    async (request) => endpoints.redeliverFailed(signedInContext(request), request.params.id),
  );
};
