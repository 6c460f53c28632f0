/** Support access and the practice overview (decision 0020): calls of our design under /api/mdo/v1. */
import {
  pagedQuerySchema,
  practiceWorkloadResponseSchema,
  refId,
  selfParamsSchema,
  supportAccessGrantSchema,
  supportAccessLogSchema,
  supportAccessOpenSchema,
  supportAccessStateSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { SupportAccessService } from './service.ts';

export const supportAccessRoutes: FastifyPluginAsyncZod<{ service: SupportAccessService }> = async (app, { service }) => {
  const tags = ['support-access'];
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const userParams = selfParamsSchema;
  const v1 = '/api/mdo/v1';

  app.get(
    `${v1}/users/:userId/practice-workload`,
    {
      ...read,
      schema: {
        tags,
        params: userParams,
        querystring: pagedQuerySchema,
        response: { 200: practiceWorkloadResponseSchema },
      },
    },
    async (request) => service.workload(signedInContext(request, request.params.userId), request.query),
  );

  app.get(
    `${v1}/users/:userId/support-access`,
    { ...read, schema: { tags, params: userParams, response: { 200: supportAccessStateSchema } } },
    async (request) => service.current(signedInContext(request, request.params.userId)),
  );

  app.post(
    `${v1}/users/:userId/support-access`,
    {
      ...write,
      schema: { tags, params: userParams, body: supportAccessOpenSchema, response: { 201: supportAccessGrantSchema } },
    },
    async (request, reply) =>
      reply.code(201).send(await service.open(signedInContext(request, request.params.userId), request.body)),
  );

  app.delete(
    `${v1}/users/:userId/support-access`,
    { ...write, schema: { tags, params: userParams, response: { 200: supportAccessStateSchema } } },
    async (request) => service.end(signedInContext(request, request.params.userId)),
  );

  app.get(
    `${v1}/md-offices/:id/support-access`,
    {
      ...read,
      schema: {
        tags,
        params: z.object({ id: refId('practice') }),
        response: { 200: supportAccessLogSchema },
      },
    },
    async (request) => service.practiceLog(signedInContext(request), request.params.id),
  );
};
