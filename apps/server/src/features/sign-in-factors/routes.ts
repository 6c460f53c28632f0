/**
 * A user's own sign-in factors (issue 48): read them, set up or remove an authenticator app, make new recovery
 * codes. Only the signed-in user's own (any other id: 404); the changes that weaken sign-in ask for the password.
 */
import {
  authenticatorSetupSchema,
  confirmAuthenticatorSchema,
  reauthenticateSchema,
  recoveryCodesSchema,
  selfParamsSchema,
  signInFactorsSchema,
  statusOkSchema,
} from '@hcp/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
import type { SignInFactorService } from './service.ts';

export const signInFactorsRoutes: FastifyPluginAsyncZod<{ factors: SignInFactorService; perMinute: number }> = async (
  app,
  { factors, perMinute },
) => {
  const schema = { tags: ['sign-in-factors'], params: selfParamsSchema };
  // Guessing a code or a password here is limited as signing in is.
  const limited = { rateLimit: { max: perMinute, timeWindow: '1 minute' } };
  const own = (request: FastifyRequest) => {
    const claims = authOf(request);
    if ((request.params as { userId: string }).userId !== claims.userId) throw notFound('User');
    return { userId: claims.userId, ctx: { ip: request.ip ?? null, requestId: request.id } };
  };
  const base = '/api/mdo/v1/users/:userId/sign-in-factors';

  app.get(base, { onRequest: app.requireAuth, schema: { ...schema, response: { 200: signInFactorsSchema } } }, async (request) =>
    factors.factors(own(request).userId),
  );

  app.post(
    `${base}/authenticator-app`,
    { config: limited, onRequest: app.requireAuth, schema: { ...schema, response: { 200: authenticatorSetupSchema } } },
    async (request) => {
      const { userId, ctx } = own(request);
      return factors.setUpAuthenticator(userId, ctx);
    },
  );

  app.post(
    `${base}/authenticator-app/confirm`,
    {
      config: limited,
      onRequest: app.requireAuth,
      schema: { ...schema, body: confirmAuthenticatorSchema, response: { 200: recoveryCodesSchema } },
    },
    async (request) => {
      const { userId, ctx } = own(request);
      return { recoveryCodes: await factors.confirmAuthenticator(userId, request.body.code, ctx) };
    },
  );

  app.post(
    `${base}/authenticator-app/remove`,
    {
      config: limited,
      onRequest: app.requireAuth,
      schema: { ...schema, body: reauthenticateSchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      const { userId, ctx } = own(request);
      await factors.removeAuthenticator(userId, request.body.currentPassword, ctx);
      return { status: 'ok' as const };
    },
  );

  app.post(
    `${base}/recovery-codes`,
    {
      config: limited,
      onRequest: app.requireAuth,
      schema: { ...schema, body: reauthenticateSchema, response: { 200: recoveryCodesSchema } },
    },
    async (request) => {
      const { userId, ctx } = own(request);
      return { recoveryCodes: await factors.newRecoveryCodes(userId, request.body.currentPassword, ctx) };
    },
  );
};
