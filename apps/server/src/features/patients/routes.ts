/** All Patients (our design in the §7 style): search and detail. */
import {
  type PatientSearchResponse,
  patientDetailSchema,
  patientSearchQuerySchema,
  patientSearchResponseSchema,
} from '@hcp/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
import type { PatientsContext, PatientsService } from './service.ts';

function ownContext(request: FastifyRequest, pathUserId: string): PatientsContext {
  const { userId } = authOf(request);
  // Another user's id answers 404, never 403 (DESIGN §3).
  if (pathUserId !== userId) throw notFound('User');
  return { userId, requestId: request.id, ip: request.ip ?? null };
}

export const patientsRoutes: FastifyPluginAsyncZod<{ service: PatientsService }> = async (app, { service }) => {
  const tags = ['patients'];

  app.get(
    '/api/mdo/v1/users/:userId/patients-search',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: z.object({ userId: z.string() }),
        querystring: patientSearchQuerySchema,
        response: { 200: patientSearchResponseSchema },
      },
    },
    async (request, reply) => {
      const json = await service.searchJson(ownContext(request, request.params.userId), request.query);
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send(json as unknown as PatientSearchResponse);
    },
  );

  app.get(
    '/api/mdo/v1/users/:userId/patients/:patientId',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: z.object({ userId: z.string(), patientId: z.uuid({ message: 'Patient not found.' }) }),
        response: { 200: patientDetailSchema },
      },
    },
    async (request) => service.detail(ownContext(request, request.params.userId), request.params.patientId),
  );
};
