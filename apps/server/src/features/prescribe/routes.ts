/** Prescribe Rx calls (our design in the §7 style). */
import {
  catalogueQuerySchema,
  catalogueResponseSchema,
  createdPrescriptionSchema,
  epcsPrescribedSchema,
  epcsSigningParamsSchema,
  epcsSigningSchema,
  newPrescriptionSchema,
  prescriptionDraftSchema,
  saveDraftSchema,
  selfParamsSchema,
  signEpcsSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { passkeySiteOfRequest } from '../../lib/request-origin.ts';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { PrescribeService } from './service.ts';

/** A draft is a form's worth of text, not a document store. */
const DRAFT_BODY_LIMIT = 32 * 1024;

export const prescribeRoutes: FastifyPluginAsyncZod<{ service: PrescribeService; signPerMinute: number }> = async (
  app,
  { service, signPerMinute },
) => {
  const tags = ['prescribe'];
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const params = selfParamsSchema;

  app.get(
    '/api/mdo/v1/drug-catalogue',
    { ...read, schema: { tags, querystring: catalogueQuerySchema, response: { 200: catalogueResponseSchema } } },
    async (request) => service.catalogue(signedInContext(request), request.query.searchText),
  );

  app.post(
    '/api/mdo/v1/users/:userId/prescriptions',
    { ...write, schema: { tags, params, body: newPrescriptionSchema, response: { 201: createdPrescriptionSchema } } },
    async (request, reply) =>
      reply.code(201).send(await service.create(signedInContext(request, request.params.userId), request.body)),
  );

  // A controlled substance (issue 48, EPCS): what would be signed, then the signature with two factors.
  app.post(
    '/api/mdo/v1/users/:userId/prescriptions/epcs-signing',
    { ...write, schema: { tags, params, body: newPrescriptionSchema, response: { 200: epcsSigningSchema } } },
    async (request) => service.prepareControlledPrescription(signedInContext(request, request.params.userId), request.body),
  );
  app.post(
    '/api/mdo/v1/epcs-signings/:signingId/prescribe',
    {
      ...write,
      config: { rateLimit: { max: signPerMinute, timeWindow: '1 minute' } },
      schema: { tags, params: epcsSigningParamsSchema, body: signEpcsSchema, response: { 201: epcsPrescribedSchema } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.signControlledPrescription(
            signedInContext(request),
            request.params.signingId,
            request.body.stepUp,
            passkeySiteOfRequest(request),
          ),
        ),
  );

  app.get(
    '/api/mdo/v1/users/:userId/prescription-draft',
    { ...read, schema: { tags, params, response: { 200: prescriptionDraftSchema } } },
    async (request) => service.draft(signedInContext(request, request.params.userId)),
  );

  app.put(
    '/api/mdo/v1/users/:userId/prescription-draft',
    {
      ...read,
      bodyLimit: DRAFT_BODY_LIMIT,
      schema: { tags, params, body: saveDraftSchema, response: { 200: prescriptionDraftSchema } },
    },
    async (request) => service.saveDraft(signedInContext(request, request.params.userId), request.body.draft),
  );

  app.delete(
    '/api/mdo/v1/users/:userId/prescription-draft',
    { ...read, schema: { tags, params, response: { 200: prescriptionDraftSchema } } },
    async (request) => service.discardDraft(signedInContext(request, request.params.userId)),
  );
};
