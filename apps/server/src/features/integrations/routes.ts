/**
 * Integration clients (admins) and SMART Backend Services sign-in: POST /oauth2/token (form-encoded, answers in
 * the OAuth shape) and /.well-known/smart-configuration.
 */
import {
  integrationClientInputSchema,
  integrationClientListSchema,
  integrationClientSchema,
  oauthErrorSchema,
  refId,
  SMART_ASSERTION_ALGORITHMS,
  tokenResponseSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { IntegrationClients } from './clients.ts';
import type { createTokenEndpoint } from './token-endpoint.ts';

export const integrationsRoutes: FastifyPluginAsyncZod<{
  clients: IntegrationClients;
  tokenEndpoint: ReturnType<typeof createTokenEndpoint>;
  publicUrl: string | undefined;
  perMinute: number;
}> = async (app, { clients, tokenEndpoint, publicUrl, perMinute }) => {
  const tags = ['integrations'];
  const v1 = '/api/mdo/v1';
  const base = (request: { protocol: string; host: string }) => publicUrl ?? `${request.protocol}://${request.host}`;

  app.get(
    `${v1}/integration-clients`,
    { onRequest: app.requireAuth, schema: { tags, response: { 200: integrationClientListSchema } } },
    async (request) => clients.list(signedInContext(request)),
  );
  app.post(
    `${v1}/integration-clients`,
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: { tags, body: integrationClientInputSchema, response: { 201: integrationClientSchema } },
    },
    async (request, reply) => reply.code(201).send(await clients.create(signedInContext(request), request.body)),
  );
  app.delete(
    `${v1}/integration-clients/:id`,
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: {
        tags,
        params: z.object({ id: refId('integrationClient') }),
        response: { 200: integrationClientSchema },
      },
    },
    async (request) => clients.disable(signedInContext(request), request.params.id),
  );

  // OAuth clients send the token request form-encoded (RFC 6749 §4.4).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.post(
    '/oauth2/token',
    {
      config: { rateLimit: { max: perMinute * 6, timeWindow: '1 minute' } },
      schema: { tags, response: { 200: tokenResponseSchema, 400: oauthErrorSchema, 401: oauthErrorSchema } },
    },
    async (request, reply) => {
      const result = await tokenEndpoint.token(request.body, {
        tokenUrl: `${base(request)}/oauth2/token`,
        requestId: request.id,
        ip: request.ip ?? null,
      });
      // RFC 6749 §5.1: token answers are never cached.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return result.ok ? result.body : reply.code(result.status).send(result.body);
    },
  );

  app.get('/.well-known/smart-configuration', { schema: { tags } }, async (request) => ({
    token_endpoint: `${base(request)}/oauth2/token`,
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...SMART_ASSERTION_ALGORITHMS],
    grant_types_supported: ['client_credentials'],
    scopes_supported: ['system/*.read', 'system/*.write', 'system/Task.write', 'system/Patient.write'],
    capabilities: ['client-confidential-asymmetric'],
  }));
};
