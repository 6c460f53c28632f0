/** Action Needed (spec §7 "Prescriptions"): the nested list, every action call, the print page and the timeline. */
import {
  type ActionNeededResponse,
  actionNeededQuerySchema,
  actionNeededResponseSchema,
  actionResultSchema,
  alternativeMedSchema,
  chartNotesSentSchema,
  mdSignatureReceivedSchema,
  prescriptionEventsSchema,
  priorAuthDismissSchema,
  refillAuthorizedErxSchema,
  refillAuthorizedFaxSchema,
  refillDeniedSchema,
  refillPostponedSchema,
  resolveExceptionsSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { sendJsonText, signedInContext } from '../../lib/route-helpers.ts';
import { alternativeMedsRequestHtml } from './print.ts';
import type { ActionNeededService } from './service.ts';

export const actionNeededRoutes: FastifyPluginAsyncZod<{ service: ActionNeededService; db: Database }> = async (
  app,
  { service, db },
) => {
  const tags = ['action-needed'];
  // Sign-in is checked before the input (a stranger learns nothing from validation messages).
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const rxParams = z.object({ id: z.uuid({ message: 'Prescription not found.' }) });
  const result = { 200: actionResultSchema };

  app.get(
    '/api/mdo/v2/users/:userId/action-needed',
    {
      ...read,
      schema: {
        tags,
        params: z.object({ userId: z.string() }),
        querystring: actionNeededQuerySchema,
        response: { 200: actionNeededResponseSchema },
      },
    },
    async (request, reply) => {
      const json = await service.listJson(signedInContext(request, request.params.userId), request.query);
      return sendJsonText<ActionNeededResponse>(reply, json);
    },
  );

  const rx = (path: string) => `/api/mdo/v1/prescriptions/:id/${path}`;

  app.post(
    rx('refills-authorized/fax'),
    { ...write, schema: { tags, params: rxParams, body: refillAuthorizedFaxSchema, response: result } },
    async (request) => service.refillAuthorizedFax(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    rx('refills-authorized/erx'),
    { ...write, schema: { tags, params: rxParams, body: refillAuthorizedErxSchema, response: result } },
    async (request) => service.refillAuthorizedErx(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    rx('refills-denied'),
    { ...write, schema: { tags, params: rxParams, body: refillDeniedSchema, response: result } },
    async (request) => service.refillDenied(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    rx('refills-postponed'),
    { ...write, schema: { tags, params: rxParams, body: refillPostponedSchema, response: result } },
    async (request) => service.refillPostponed(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    rx('substitution/alternative-med'),
    { ...write, schema: { tags, params: rxParams, body: alternativeMedSchema, response: result } },
    async (request) => service.alternativeMed(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    rx('prior-auth/chart-notes-sent'),
    { ...write, schema: { tags, params: rxParams, body: chartNotesSentSchema, response: result } },
    async (request) => service.chartNotesSent(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    '/api/mdo/v1/prescriptions/all/prior-auth/dismiss',
    { ...write, schema: { tags, body: priorAuthDismissSchema, response: result } },
    async (request) => service.priorAuthDismiss(signedInContext(request), request.body),
  );
  app.post(
    '/api/mdo/v1/prescriptions/all/prior-auth/md-signature-received',
    { ...write, schema: { tags, body: mdSignatureReceivedSchema, response: result } },
    async (request) => service.mdSignatureReceived(signedInContext(request), request.body),
  );
  app.post(
    '/api/mdo/v1/patient-numbers/resolve-exceptions',
    { ...write, schema: { tags, body: resolveExceptionsSchema, response: result } },
    async (request) => service.resolvePhoneExceptions(signedInContext(request), request.body.patientPhoneNumberUpdates),
  );

  app.get(rx('alternative-meds-request-print'), { ...read, schema: { tags, params: rxParams } }, async (request, reply) => {
    const html = await alternativeMedsRequestHtml(db, signedInContext(request).userId, request.params.id);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  app.get(
    rx('events'),
    { ...read, schema: { tags, params: rxParams, response: { 200: prescriptionEventsSchema } } },
    async (request) => service.events(signedInContext(request), request.params.id),
  );
};
