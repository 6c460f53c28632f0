/**
 * POST /api/mdo/v1/users/{userId}/notice-links/redeem {code}: a fax cover sheet's one-time link, used once. The
 * code travels in the body, not the path, so that request logs and the replay record never hold it.
 */
import { noticeLinkRedeemedSchema, noticeLinkRedeemSchema, selfParamsSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { NoticeLinks } from './links.ts';

export const officeNotificationRoutes: FastifyPluginAsyncZod<{ links: NoticeLinks }> = async (app, { links }) => {
  app.post(
    '/api/mdo/v1/users/:userId/notice-links/redeem',
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: {
        tags: ['office-notifications'],
        params: selfParamsSchema,
        body: noticeLinkRedeemSchema,
        response: { 200: noticeLinkRedeemedSchema },
      },
    },
    async (request) => links.redeem(signedInContext(request, request.params.userId), request.body.code),
  );
};
