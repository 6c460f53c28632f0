/** Covering prescribers (issue 23, decision 0041): calls of our design under /api/mdo/v1/users/{userId}/coverage. */
import {
  COVERAGE_MESSAGES,
  coverageInputSchema,
  coverageResponseSchema,
  coverageSchema,
  deletedSchema,
  practiceSigningSchema,
  ref,
  selfParamsSchema,
  signingPolicyInputSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { CoverageService } from './service.ts';

export const coverageRoutes: FastifyPluginAsyncZod<{ service: CoverageService }> = async (app, { service }) => {
  const tags = ['coverage'];
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const base = '/api/mdo/v1/users/:userId/coverage';
  const userParams = selfParamsSchema;
  const coverageParams = userParams.extend({ id: ref('coverage', z.uuid({ message: COVERAGE_MESSAGES.notFound })) });

  app.get(base, { ...read, schema: { tags, params: userParams, response: { 200: coverageResponseSchema } } }, async (request) =>
    service.list(signedInContext(request, request.params.userId)),
  );

  app.put(
    `${base}/policy`,
    { ...write, schema: { tags, params: userParams, body: signingPolicyInputSchema, response: { 200: practiceSigningSchema } } },
    async (request) => service.setPolicy(signedInContext(request, request.params.userId), request.body),
  );

  app.post(
    base,
    { ...write, schema: { tags, params: userParams, body: coverageInputSchema, response: { 201: coverageSchema } } },
    async (request, reply) =>
      reply.code(201).send(await service.create(signedInContext(request, request.params.userId), request.body)),
  );

  app.delete(
    `${base}/:id`,
    { ...write, schema: { tags, params: coverageParams, response: { 200: deletedSchema } } },
    async (request) => {
      await service.end(signedInContext(request, request.params.userId), request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );
};
