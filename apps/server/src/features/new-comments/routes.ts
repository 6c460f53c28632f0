/** New Comments calls of spec §7: doctor-list-search, all-rx-comment, rx-comment, office-mentions. */
import {
  commentsQuerySchema,
  commentThreadSchema,
  type DoctorListSearchResponse,
  doctorListSearchQuerySchema,
  doctorListSearchResponseSchema,
  officeMentionsRequestSchema,
  officeMentionsResponseSchema,
  refId,
  rxCommentRequestSchema,
  rxCommentResponseSchema,
  selfParamsSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendJsonText, signedInContext } from '../../lib/route-helpers.ts';
import { reachedOf } from '../../plugins/reach.ts';
import type { NewCommentsService } from './service.ts';

export const newCommentsRoutes: FastifyPluginAsyncZod<{ service: NewCommentsService }> = async (app, { service }) => {
  const tags = ['new-comments'];
  const userParams = selfParamsSchema;

  app.get(
    '/api/mdo/v2/users/:userId/doctor-list-search',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: userParams,
        querystring: doctorListSearchQuerySchema,
        response: { 200: doctorListSearchResponseSchema },
      },
    },
    async (request, reply) => {
      const json = await service.doctorList(signedInContext(request, request.params.userId), request.query.filterBy);
      return sendJsonText<DoctorListSearchResponse>(reply, json);
    },
  );

  app.get(
    '/api/mdo/v1/patients/:patientId/all-rx-comment',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: z.object({ patientId: refId('patient') }),
        querystring: commentsQuerySchema,
        response: { 200: commentThreadSchema },
      },
    },
    async (request) =>
      service.thread(signedInContext(request), request.params.patientId, request.query.offset, request.query.limit),
  );

  app.post(
    '/api/mdo/v1/users/:userId/rx-comment',
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: { tags, params: userParams, body: rxCommentRequestSchema, response: { 200: rxCommentResponseSchema } },
    },
    async (request) => {
      // The reach guard resolved both, and the prescription as one of that patient's (issue 42).
      const patient = reachedOf(request, 'patient').get(request.body.patientId);
      const prescription = request.body.prescriptionId
        ? reachedOf(request, 'prescription').get(request.body.prescriptionId)
        : null;
      if (!patient || prescription === undefined) throw new Error('the reach guard did not resolve the references');
      return {
        status: 'SUCCESS' as const,
        comment: await service.reply(signedInContext(request, request.params.userId), {
          patient,
          prescription,
          comment: request.body.comment,
        }),
      };
    },
  );

  app.put(
    '/api/mdo/v1/users/:userId/office-mentions',
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: { tags, params: userParams, body: officeMentionsRequestSchema, response: { 200: officeMentionsResponseSchema } },
    },
    async (request) => ({
      status: 'SUCCESS' as const,
      marked: await service.markRead(signedInContext(request, request.params.userId), request.body.mentionIds),
    }),
  );
};
