/** Manage Accounts calls (our design in the §7 style; admins only). */
import {
  accountInviteSchema,
  accountSchema,
  accountSearchResponseSchema,
  accountUpdateSchema,
  pagedQuerySchema,
  refId,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { ManageAccountsService } from './service.ts';

export const manageAccountsRoutes: FastifyPluginAsyncZod<{
  service: ManageAccountsService;
  publicUrl: string | undefined;
}> = async (app, { service, publicUrl }) => {
  const tags = ['manage-accounts'];
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const params = z.object({ id: refId('account') });

  app.get(
    '/api/mdo/v1/accounts',
    { ...read, schema: { tags, querystring: pagedQuerySchema, response: { 200: accountSearchResponseSchema } } },
    async (request) => service.search(signedInContext(request), request.query),
  );

  app.post(
    '/api/mdo/v1/accounts',
    { ...write, schema: { tags, body: accountInviteSchema, response: { 201: accountSchema } } },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.invite(signedInContext(request), request.body, publicUrl ?? `${request.protocol}://${request.host}`)),
  );

  app.put(
    '/api/mdo/v1/accounts/:id',
    { ...write, schema: { tags, params, body: accountUpdateSchema, response: { 200: accountSchema } } },
    async (request) => service.update(signedInContext(request), request.params.id, request.body),
  );

  app.post(
    '/api/mdo/v1/accounts/:id/reset-mfa',
    { ...write, schema: { tags, params, response: { 200: accountSchema } } },
    async (request) => service.resetTwoStep(signedInContext(request), request.params.id),
  );
};
