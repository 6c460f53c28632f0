/**
 * A user's own sign-in factors (issue 48): read them, set up or remove an authenticator app, make new recovery
 * codes. Only the signed-in user's own (any other id: 404); the changes that weaken sign-in ask for the password.
 */
import {
  addPasskeySchema,
  authenticatorSetupSchema,
  confirmAuthenticatorSchema,
  passkeyOptionsSchema,
  passkeyParamsSchema,
  reauthenticateSchema,
  recoveryCodesSchema,
  renamePasskeySchema,
  selfParamsSchema,
  signInFactorsSchema,
  statusOkSchema,
} from '@hcp/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors.ts';
import { passkeySiteOfRequest } from '../../lib/request-origin.ts';
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
    `${base}/passkeys/options`,
    { config: limited, onRequest: app.requireAuth, schema: { ...schema, response: { 200: passkeyOptionsSchema } } },
    async (request) => {
      const { userId } = own(request);
      return {
        options: (await factors.registrationOptions(userId, passkeySiteOfRequest(request))) as unknown as Record<string, unknown>,
      };
    },
  );

  app.post(
    `${base}/passkeys`,
    {
      config: limited,
      onRequest: app.requireAuth,
      schema: { ...schema, body: addPasskeySchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      const { userId, ctx } = own(request);
      await factors.addPasskey(userId, request.body, passkeySiteOfRequest(request), ctx);
      return { status: 'ok' as const };
    },
  );

  app.post(
    `${base}/passkeys/:passkeyId/rename`,
    {
      config: limited,
      onRequest: app.requireAuth,
      schema: { tags: schema.tags, params: passkeyParamsSchema, body: renamePasskeySchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      const { userId, ctx } = own(request);
      await factors.renamePasskey(userId, request.params.passkeyId, request.body.name, ctx);
      return { status: 'ok' as const };
    },
  );

  app.post(
    `${base}/passkeys/:passkeyId/remove`,
    {
      config: limited,
      onRequest: app.requireAuth,
      schema: { tags: schema.tags, params: passkeyParamsSchema, body: reauthenticateSchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      const { userId, ctx } = own(request);
      await factors.removePasskey(userId, request.params.passkeyId, request.body.currentPassword, ctx);
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
