/** All Patients (our design in the §7 style): search and detail. */
import {
  type PatientSearchResponse,
  patientDetailSchema,
  patientSearchQuerySchema,
  patientSearchResponseSchema,
  refId,
  selfParamsSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendJsonText, signedInContext } from '../../lib/route-helpers.ts';
import type { PatientsService } from './service.ts';

export const patientsRoutes: FastifyPluginAsyncZod<{ service: PatientsService }> = async (app, { service }) => {
  const tags = ['patients'];

  app.get(
    '/api/mdo/v1/users/:userId/patients-search',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: selfParamsSchema,
        querystring: patientSearchQuerySchema,
        response: { 200: patientSearchResponseSchema },
      },
    },
    async (request, reply) => {
      const json = await service.searchJson(signedInContext(request, request.params.userId), request.query);
      return sendJsonText<PatientSearchResponse>(reply, json);
    },
  );

  app.get(
    '/api/mdo/v1/users/:userId/patients/:patientId',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: selfParamsSchema.extend({ patientId: refId('patient') }),
        response: { 200: patientDetailSchema },
      },
    },
    async (request) => service.detail(signedInContext(request, request.params.userId), request.params.patientId),
  );
};
