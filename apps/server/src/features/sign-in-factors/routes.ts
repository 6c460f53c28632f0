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
  practiceSignInPolicyInputSchema,
  practiceSignInPolicyParamsSchema,
  practiceSignInPolicySchema,
  reauthenticateSchema,
  recoveryCodesSchema,
  renamePasskeySchema,
  selfParamsSchema,
  signInFactorsSchema,
  statusOkSchema,
  tenantSignInPolicySchema,
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
  // What a user who must add a strong factor may do with a token good only for that (decision 0060).
  const enrolling = { ...limited, duringEnrolment: true };
  const own = (request: FastifyRequest) => {
    const claims = authOf(request);
    if ((request.params as { userId: string }).userId !== claims.userId) throw notFound('User');
    return { userId: claims.userId, ctx: { ip: request.ip ?? null, requestId: request.id } };
  };
  const base = '/api/mdo/v1/users/:userId/sign-in-factors';

  app.get(
    base,
    {
      config: { duringEnrolment: true },
      onRequest: app.requireAuth,
      schema: { ...schema, response: { 200: signInFactorsSchema } },
    },
    async (request) => factors.factors(own(request).userId),
  );

  app.post(
    `${base}/authenticator-app`,
    { config: enrolling, onRequest: app.requireAuth, schema: { ...schema, response: { 200: authenticatorSetupSchema } } },
    async (request) => {
      const { userId, ctx } = own(request);
      return factors.setUpAuthenticator(userId, ctx);
    },
  );

  app.post(
    `${base}/authenticator-app/confirm`,
    {
      config: enrolling,
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
    { config: enrolling, onRequest: app.requireAuth, schema: { ...schema, response: { 200: passkeyOptionsSchema } } },
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
      config: enrolling,
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

  // Sign-in policy (decision 0060): the tenant's by its admin, a practice's by its prescribers.
  app.get(
    '/api/mdo/v1/sign-in-policy',
    { onRequest: app.requireAuth, schema: { tags: schema.tags, response: { 200: tenantSignInPolicySchema } } },
    async (request) => factors.tenantSignInPolicy(authOf(request).userId),
  );
  app.put(
    '/api/mdo/v1/sign-in-policy',
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: { tags: schema.tags, body: tenantSignInPolicySchema, response: { 200: tenantSignInPolicySchema } },
    },
    async (request) =>
      factors.setTenantSignInPolicy(
        { userId: authOf(request).userId, ip: request.ip ?? null, requestId: request.id },
        request.body,
      ),
  );
  app.get(
    '/api/mdo/v1/practices/:practiceId/sign-in-policy',
    {
      onRequest: app.requireAuth,
      schema: { tags: schema.tags, params: practiceSignInPolicyParamsSchema, response: { 200: practiceSignInPolicySchema } },
    },
    async (request) => factors.practiceSignInPolicy(authOf(request).userId, request.params.practiceId),
  );
  app.put(
    '/api/mdo/v1/practices/:practiceId/sign-in-policy',
    {
      onRequest: app.requireAuth,
      preHandler: app.idempotent,
      schema: {
        tags: schema.tags,
        params: practiceSignInPolicyParamsSchema,
        body: practiceSignInPolicyInputSchema,
        response: { 200: practiceSignInPolicySchema },
      },
    },
    async (request) =>
      factors.setPracticeSignInPolicy(
        { userId: authOf(request).userId, ip: request.ip ?? null, requestId: request.id },
        request.params.practiceId,
        request.body.strongFactorRequired,
      ),
  );
};
