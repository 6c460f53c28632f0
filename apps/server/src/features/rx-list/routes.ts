/** GET /api/mdo/v1/users/{userId}/rx-list (spec §7): prescriptions of the user's offices in a date range. */
import { type RxListItem, rxListQuerySchema, rxListResponseSchema, selfParamsSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { entryOf } from '../../lib/audit.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import type { ReadRouting } from '../../lib/read-routing.ts';
import { sendJsonText, signedInContext } from '../../lib/route-helpers.ts';
import { rxListJson } from './repository.ts';

export const rxListRoutes: FastifyPluginAsyncZod<{ reads: ReadRouting; now: () => Date }> = async (app, { reads, now }) => {
  app.get(
    '/api/mdo/v1/users/:userId/rx-list',
    {
      onRequest: app.requireAuth,
      schema: {
        tags: ['rx-list'],
        params: selfParamsSchema,
        querystring: rxListQuerySchema,
        response: { 200: rxListResponseSchema },
      },
    },
    async (request, reply) => {
      const { userId, requestId, ip } = signedInContext(request, request.params.userId);
      const { startdate, enddate, selectedFilter } = request.query;
      const entry = entryOf({ userId, requestId, ip }, 'rx-list.read', 'rx-list', null, {
        start: startdate,
        end: enddate,
        filter: selectedFilter,
      });
      const json = await reads.auditedList(userId, entry, (source, audit) =>
        rxListJson(
          source,
          { userId, startIso: startdate, endIso: enddate, filter: selectedFilter, todayIso: todayIsoOf(now) },
          audit,
        ),
      );
      return sendJsonText<RxListItem[]>(reply, json);
    },
  );
};
