/** GET /api/mdo/v1/users/{userId}/rx-list (spec §7): prescriptions of the user's offices in a date range. */
import { type RxListItem, rxListQuerySchema, rxListResponseSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import { sendJsonText, signedInContext } from '../../lib/route-helpers.ts';
import { rxListJson } from './repository.ts';

export const rxListRoutes: FastifyPluginAsyncZod<{ db: Database; now: () => Date }> = async (app, { db, now }) => {
  app.get(
    '/api/mdo/v1/users/:userId/rx-list',
    {
      onRequest: app.requireAuth,
      schema: {
        tags: ['rx-list'],
        params: z.object({ userId: z.string() }),
        querystring: rxListQuerySchema,
        response: { 200: rxListResponseSchema },
      },
    },
    async (request, reply) => {
      const { userId, requestId, ip } = signedInContext(request, request.params.userId);
      const json = await rxListJson(db, {
        userId,
        startIso: request.query.startdate,
        endIso: request.query.enddate,
        filter: request.query.selectedFilter,
        todayIso: todayIsoOf(now),
        requestId,
        ip,
      });
      return sendJsonText<RxListItem[]>(reply, json);
    },
  );
};
