/** Action Needed (spec §7 "Prescriptions"): the nested list, every action call, the print page and the timeline. */
import {
  type ActionNeededResponse,
  type ActionResult,
  actionNeededQuerySchema,
  actionNeededResponseSchema,
  actionQueueQuerySchema,
  actionQueueResponseSchema,
  actionResultSchema,
  alternativeMedSchema,
  bulkActionResultSchema,
  bulkActionSchema,
  chartNotesSentSchema,
  earlierChartNotesSchema,
  epcsSignedSchema,
  epcsSigningParamsSchema,
  epcsSigningSchema,
  mdSignatureReceivedSchema,
  preparedDecisionInputSchema,
  prepareEpcsRefillSchema,
  prescriptionEventsSchema,
  priorAuthDismissSchema,
  REQUEST_ID_PATTERN,
  ref,
  refId,
  refillAuthorizedErxSchema,
  refillAuthorizedFaxSchema,
  refillDeniedSchema,
  refillPostponedSchema,
  resolveExceptionsSchema,
  selfParamsSchema,
  signEpcsSchema,
  signPreparedSchema,
  undoResultSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { passkeySiteOfRequest } from '../../lib/request-origin.ts';
import { sendJsonText, signedInContext } from '../../lib/route-helpers.ts';
import type { ActionContext } from './act.ts';
import { alternativeMedsRequestHtml } from './print.ts';
import type { ActionNeededService } from './service.ts';
import { NOTHING_TO_UNDO } from './undo.ts';

export const actionNeededRoutes: FastifyPluginAsyncZod<{
  service: ActionNeededService;
  db: Database;
  /** Guessing a password or code while signing is limited as signing in is. */
  signPerMinute: number;
}> = async (app, { service, db, signPerMinute }) => {
  const tags = ['action-needed'];
  // Sign-in is checked before the input (a stranger learns nothing from validation messages).
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const rxParams = z.object({ id: refId('prescription') });
  const result = { 200: actionResultSchema };

  app.get(
    '/api/mdo/v2/users/:userId/action-needed',
    {
      ...read,
      schema: {
        tags,
        params: selfParamsSchema,
        querystring: actionNeededQuerySchema,
        response: { 200: actionNeededResponseSchema },
      },
    },
    async (request, reply) => {
      const json = await service.listJson(signedInContext(request, request.params.userId), request.query);
      return sendJsonText<ActionNeededResponse>(reply, json);
    },
  );

  // The one queue (issue 22): every open item, most urgent first, with what a prescriber decides from.
  app.get(
    '/api/mdo/v2/users/:userId/action-queue',
    {
      ...read,
      schema: {
        tags,
        params: selfParamsSchema,
        querystring: actionQueueQuerySchema,
        response: { 200: actionQueueResponseSchema },
      },
    },
    async (request) => service.queue(signedInContext(request, request.params.userId), request.query),
  );

  const rx = (path: string) => `/api/mdo/v1/prescriptions/:id/${path}`;

  /** One action on one prescription: POST /prescriptions/{id}/<path> with its body schema. */
  function rxAction<B extends z.ZodType>(
    path: string,
    body: B,
    act: (ctx: ActionContext, id: string, input: z.infer<B>) => Promise<ActionResult>,
  ) {
    app.post(rx(path), { ...write, schema: { tags, params: rxParams, body, response: result } }, async (request) => {
      // The confirmation choice travels with the call but is the user's, not part of what the pharmacy hears.
      const { skipSendConfirmation, ...input } = request.body as z.infer<B> & { skipSendConfirmation?: boolean };
      return act({ ...signedInContext(request), skipSendConfirmation }, request.params.id, input as z.infer<B>);
    });
  }
  rxAction('refills-authorized/fax', refillAuthorizedFaxSchema, service.refillAuthorizedFax);
  rxAction('refills-authorized/erx', refillAuthorizedErxSchema, service.refillAuthorizedErx);
  rxAction('refills-denied', refillDeniedSchema, service.refillDenied);
  rxAction('refills-postponed', refillPostponedSchema, service.refillPostponed);
  rxAction('substitution/alternative-med', alternativeMedSchema, service.alternativeMed);
  rxAction('prior-auth/chart-notes-sent', chartNotesSentSchema, service.chartNotesSent);

  // A controlled substance's refill (issue 48, EPCS): what would be signed, then the signature with two factors.
  app.post(
    rx('epcs-signing'),
    { ...write, schema: { tags, params: rxParams, body: prepareEpcsRefillSchema, response: { 200: epcsSigningSchema } } },
    async (request) => service.prepareControlledRefill(signedInContext(request), request.params.id, request.body),
  );
  app.post(
    '/api/mdo/v1/epcs-signings/:signingId/sign',
    {
      ...write,
      config: { rateLimit: { max: signPerMinute, timeWindow: '1 minute' } },
      schema: { tags, params: epcsSigningParamsSchema, body: signEpcsSchema, response: { 200: epcsSignedSchema } },
    },
    async (request) =>
      service.signControlledRefill(
        signedInContext(request),
        request.params.signingId,
        request.body.stepUp,
        passkeySiteOfRequest(request),
      ),
  );

  // One decision on many items, each in its own transaction, answered item by item (issue 22).
  app.post(
    '/api/mdo/v1/prescriptions/bulk-actions',
    { ...write, schema: { tags, body: bulkActionSchema, response: { 200: bulkActionResultSchema } } },
    async (request) => service.bulk(signedInContext(request), request.body),
  );

  // Prepare-then-sign (issue 23): staff prepare a signature decision; a prescriber signs one or all as prepared.
  app.put(
    rx('prepared-decision'),
    { ...write, schema: { tags, params: rxParams, body: preparedDecisionInputSchema, response: result } },
    async (request) => service.prepareDecision(signedInContext(request), request.params.id, request.body),
  );
  app.delete(rx('prepared-decision'), { ...write, schema: { tags, params: rxParams, response: result } }, async (request) =>
    service.withdrawPrepared(signedInContext(request), request.params.id),
  );
  app.post(
    '/api/mdo/v1/prepared-decisions/sign',
    { ...write, schema: { tags, body: signPreparedSchema, response: { 200: bulkActionResultSchema } } },
    async (request) => service.signPrepared(signedInContext(request), request.body),
  );

  // Takes a decision back within its window (issue 22): nothing has gone to the pharmacy yet.
  app.post(
    '/api/mdo/v1/decisions/:requestId/undo',
    {
      ...write,
      schema: {
        tags,
        params: z.object({ requestId: ref('decision', z.string().regex(REQUEST_ID_PATTERN, { message: NOTHING_TO_UNDO })) }),
        response: { 200: undoResultSchema },
      },
    },
    async (request) => service.undoDecision(signedInContext(request), request.params.requestId),
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
    async (request) =>
      service.resolvePhoneExceptions(
        { ...signedInContext(request), skipSendConfirmation: request.body.skipSendConfirmation },
        request.body.patientPhoneNumberUpdates,
      ),
  );

  app.get(rx('alternative-meds-request-print'), { ...read, schema: { tags, params: rxParams } }, async (request, reply) => {
    const html = await alternativeMedsRequestHtml(db, signedInContext(request), request.params.id);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  app.get(
    rx('earlier-chart-notes'),
    { ...read, schema: { tags, params: rxParams, response: { 200: earlierChartNotesSchema } } },
    async (request) => service.earlierChartNotes(signedInContext(request), request.params.id),
  );

  app.get(
    rx('events'),
    { ...read, schema: { tags, params: rxParams, response: { 200: prescriptionEventsSchema } } },
    async (request) => service.events(signedInContext(request), request.params.id),
  );
};
