/** ZIP lookup and address verification (spec §7 zip-info, users/{id}/verify-address), for every signed-in user. */
import { addressInputSchema, addressVerificationSchema, selfParamsSchema, zipInfoSchema, zipParamSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { findZip, verifyAddress } from '../../lib/address-verification.ts';
import { notFound } from '../../lib/errors.ts';
import { signedInContext } from '../../lib/route-helpers.ts';

export const addressesRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const tags = ['addresses'];

  app.get(
    '/api/mdo/v1/zip-info/:zip',
    { onRequest: app.requireAuth, schema: { tags, params: zipParamSchema, response: { 200: zipInfoSchema } } },
    async (request, reply) => {
      const zip = await findZip(db, request.params.zip);
      if (!zip) throw notFound('ZIP code');
      // ZIP codes change rarely: let the browser keep an answer for a day.
      reply.header('cache-control', 'private, max-age=86400');
      return zip;
    },
  );

  app.post(
    '/api/mdo/v1/users/:userId/verify-address',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: selfParamsSchema,
        body: addressInputSchema,
        response: { 200: addressVerificationSchema },
      },
    },
    async (request) => {
      signedInContext(request, request.params.userId);
      return verifyAddress(db, request.body);
    },
  );
};
