/** The signed-in user's details, the feature flags and the user's own preferences (spec §3, §7). */
import { apiPaths, featureFlagsSchema, selfParamsSchema, userDetailsSchema, userPreferencesSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { UsersService } from './service.ts';

export const usersRoutes: FastifyPluginAsyncZod<{ service: UsersService }> = async (app, { service }) => {
  const tags = ['users'];
  const params = selfParamsSchema;

  app.get(
    '/api/mdo/v1/users/:userId/mdo-user-details',
    { onRequest: app.requireAuth, schema: { tags, params, response: { 200: userDetailsSchema } } },
    // Another user's id answers 404, never 403, so ids cannot be probed (DESIGN §3).
    async (request) => service.details(signedInContext(request, request.params.userId).userId),
  );

  app.get(
    apiPaths.featureFlags,
    { onRequest: app.requireAuth, schema: { tags, response: { 200: featureFlagsSchema } } },
    async () => service.featureFlags(),
  );

  app.post(
    '/api/mdo/v1/users/:userId/preferences',
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: { tags, params, body: userPreferencesSchema, response: { 200: userDetailsSchema } },
    },
    async (request) => service.updatePreferences(signedInContext(request, request.params.userId), request.body),
  );
};
