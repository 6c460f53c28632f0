/** GET /api/mdo/v1/users/{userId}/rx-list (spec §7): prescriptions of the user's offices in a date range. */
import { calendarDateOf, type RxListItem, rxListQuerySchema, rxListResponseSchema, toIsoDate } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
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
      const { userId } = authOf(request);
      if (request.params.userId !== userId) throw notFound('User');
      const json = await rxListJson(db, {
        userId,
        startIso: request.query.startdate,
        endIso: request.query.enddate,
        filter: request.query.selectedFilter,
        todayIso: toIsoDate(calendarDateOf(now())),
        requestId: request.id,
        ip: request.ip ?? null,
      });
      // Built by PostgreSQL in one statement; sent as is (its shape is checked in the tests).
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send(json as unknown as RxListItem[]);
    },
  );
};
