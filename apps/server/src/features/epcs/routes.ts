/**
 * EPCS (issue 48, decision 0059): the caller's Controlled substances page (registrations, permissions at their
 * practices), the two-person permission changes, the practice's daily report, and the public key set a pharmacy
 * verifies signatures with. Signing a controlled refill is under action-needed (it is a refill decision).
 */
import {
  approveEpcsChangeSchema,
  deaRegistrationInputSchema,
  deaRegistrationSchema,
  epcsChangeEnteredSchema,
  epcsChangeParamsSchema,
  epcsKeysSchema,
  epcsOverviewSchema,
  epcsReportParamsSchema,
  epcsReportQuerySchema,
  epcsReportSchema,
  passkeyOptionsSchema,
  proposeEpcsChangeSchema,
  registrationParamsSchema,
  selfParamsSchema,
  statusOkSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EpcsSigner } from '../../lib/epcs-signature.ts';
import { passkeySiteOfRequest } from '../../lib/request-origin.ts';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { EpcsService } from './service.ts';

export const epcsRoutes: FastifyPluginAsyncZod<{ epcs: EpcsService; signer: EpcsSigner; perMinute: number }> = async (
  app,
  { epcs, signer, perMinute },
) => {
  const tags = ['epcs'];
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  // Each step-up guesses a password and a code: limited as signing in is.
  const limited = { config: { rateLimit: { max: perMinute, timeWindow: '1 minute' } } };
  const own = '/api/mdo/v1/users/:userId/epcs';

  app.get(own, { ...read, schema: { tags, params: selfParamsSchema, response: { 200: epcsOverviewSchema } } }, async (request) =>
    epcs.overview(signedInContext(request, request.params.userId).userId),
  );

  app.post(
    `${own}/registrations`,
    {
      ...write,
      schema: { tags, params: selfParamsSchema, body: deaRegistrationInputSchema, response: { 200: deaRegistrationSchema } },
    },
    async (request) => epcs.addRegistration(signedInContext(request, request.params.userId), request.body),
  );

  app.post(
    `${own}/registrations/:registrationId/remove`,
    { ...write, schema: { tags, params: registrationParamsSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await epcs.removeRegistration(signedInContext(request, request.params.userId), request.params.registrationId);
      return { status: 'ok' as const };
    },
  );

  app.post(
    `${own}/step-up-options`,
    { ...read, ...limited, schema: { tags, params: selfParamsSchema, response: { 200: passkeyOptionsSchema } } },
    async (request) => {
      const { userId } = signedInContext(request, request.params.userId);
      return { options: (await epcs.stepUpOptions(userId, passkeySiteOfRequest(request))) as Record<string, unknown> };
    },
  );

  app.post(
    '/api/mdo/v1/epcs-changes',
    { ...write, ...limited, schema: { tags, body: proposeEpcsChangeSchema, response: { 200: epcsChangeEnteredSchema } } },
    async (request) => epcs.proposeChange(signedInContext(request), request.body, passkeySiteOfRequest(request)),
  );

  app.post(
    '/api/mdo/v1/epcs-changes/:changeId/approve',
    {
      ...write,
      ...limited,
      schema: { tags, params: epcsChangeParamsSchema, body: approveEpcsChangeSchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      await epcs.approveChange(
        signedInContext(request),
        request.params.changeId,
        request.body.stepUp,
        passkeySiteOfRequest(request),
      );
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/api/mdo/v1/epcs-changes/:changeId/decline',
    { ...write, schema: { tags, params: epcsChangeParamsSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await epcs.declineChange(signedInContext(request), request.params.changeId);
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/api/mdo/v1/practices/:practiceId/epcs-report',
    {
      ...read,
      schema: { tags, params: epcsReportParamsSchema, querystring: epcsReportQuerySchema, response: { 200: epcsReportSchema } },
    },
    async (request) => epcs.report(signedInContext(request), request.params.practiceId, request.query.day),
  );

  // Public: what a pharmacy verifies an EPCS signature with (no patient data, nothing secret).
  app.get('/api/epcs/keys', { schema: { tags, response: { 200: epcsKeysSchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return signer.keySet();
  });
};
