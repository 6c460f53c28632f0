/** Auth service routes (spec §7) and their legacy twins with the legacy answer shapes. */
import {
  changePasswordSchema,
  googleLoginRequestSchema,
  legacyLoginResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  mfaPasskeyOptionsRequestSchema,
  mfaRequestSchema,
  mfaResendRequestSchema,
  passkeyLoginRequestSchema,
  passkeyOptionsSchema,
  passwordResetRequestSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  rememberedDevicesSchema,
  selfParamsSchema,
  signInOptionsSchema,
  statusOkSchema,
  tokensSchema,
  updatePasswordByTokenSchema,
  verifyPasswordTokenSchema,
} from '@hcp/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { requestOrigin } from '../../lib/request-origin.ts';
import { authOf } from '../../plugins/auth.ts';
import type { AuthService, RequestContext } from './service.ts';

function contextOf(request: FastifyRequest): RequestContext {
  const { hostname, protocol, port } = requestOrigin(request);
  return { ip: request.ip ?? null, requestId: request.id, hostname, origin: { protocol, port } };
}

/** Per-IP limits on every auth route (429 with Retry-After); the per-account lockout is in the service. */
export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  perMinute: number;
  publicUrl: string | undefined;
  googleClientId: string | undefined;
}> = async (app, { auth, perMinute, publicUrl, googleClientId }) => {
  /** Where links in mails point: PUBLIC_URL when configured, else the address the request came to. */
  const publicOrigin = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;
  const tags = ['auth'];
  const signIn = { rateLimit: { max: perMinute, timeWindow: '1 minute' } };
  const renew = { rateLimit: { max: perMinute * 6, timeWindow: '1 minute' } };

  app.post(
    '/auth-service/login',
    { config: signIn, schema: { tags, body: loginRequestSchema, response: { 200: loginResponseSchema } } },
    async (request) => auth.login(request.body, contextOf(request)),
  );

  app.post(
    '/auth/mdo/login',
    {
      config: signIn,
      schema: {
        tags,
        body: loginRequestSchema,
        response: {
          200: legacyLoginResponseSchema.extend({ userToken: z.string().optional(), redirectionUrl: z.string().optional() }),
        },
      },
    },
    async (request) => {
      const answer = await auth.login(request.body, contextOf(request));
      if ('jwtToken' in answer) {
        const { accessToken, refreshToken, userID } = answer.jwtToken;
        return { authToken: { accessToken, refreshToken, userID }, maskedEmail: null, maskedPhone: null };
      }
      if ('mfaResponse' in answer) {
        const { maskedEmail, maskedPhone, userToken } = answer.mfaResponse;
        return { authToken: null, maskedEmail, maskedPhone, userToken };
      }
      return { authToken: null, maskedEmail: null, maskedPhone: null, redirectionUrl: answer.redirectionUrl };
    },
  );

  for (const path of ['/auth-service/mfa', '/auth/mdo/verify-2-step']) {
    app.post(
      path,
      { config: signIn, schema: { tags, body: mfaRequestSchema, response: { 200: tokensSchema } } },
      async (request) => auth.verifyMfa(request.body, contextOf(request)),
    );
  }

  app.post(
    '/auth-service/mfa/resend',
    { config: signIn, schema: { tags, body: mfaResendRequestSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await auth.resendMfa(request.body.authToken, contextOf(request));
      return { status: 'ok' as const };
    },
  );

  // Issue 48: a passkey as the second step needs a challenge the browser signs.
  app.post(
    '/auth-service/mfa/passkey-options',
    { config: signIn, schema: { tags, body: mfaPasskeyOptionsRequestSchema, response: { 200: passkeyOptionsSchema } } },
    async (request) => ({
      options: (await auth.passkeyOptions(request.body.authToken, contextOf(request))) as Record<string, unknown>,
    }),
  );

  // Issue 48: signing in by a passkey alone (the key names its owner; user verification makes it two factors).
  app.post(
    '/auth-service/passkey-login/options',
    { config: signIn, schema: { tags, response: { 200: passkeyOptionsSchema } } },
    async (request) => ({ options: (await auth.passkeyLoginOptions(contextOf(request))) as Record<string, unknown> }),
  );

  app.post(
    '/auth-service/passkey-login',
    { config: signIn, schema: { tags, body: passkeyLoginRequestSchema, response: { 200: loginResponseSchema } } },
    async (request) => auth.loginWithPasskey(request.body.passkey, request.body.rememberMeToken, contextOf(request)),
  );

  app.get('/auth-service/options', { schema: { tags, response: { 200: signInOptionsSchema } } }, async () => ({
    googleClientId: googleClientId ?? null,
  }));

  app.post(
    '/auth/mdo/google/:token',
    {
      config: signIn,
      schema: {
        tags,
        params: z.object({ token: z.string().min(1).max(4096) }),
        body: googleLoginRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => auth.loginWithGoogle(request.params.token, request.body?.rememberMeToken, contextOf(request)),
  );

  for (const path of ['/auth-service/refresh', '/auth/refresh-token']) {
    app.post(
      path,
      { config: renew, schema: { tags, body: refreshRequestSchema, response: { 200: refreshResponseSchema } } },
      async (request) => auth.refresh(request.body.refreshToken, contextOf(request)),
    );
  }

  app.post(
    '/auth/user/reset-password',
    { config: signIn, schema: { tags, body: passwordResetRequestSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await auth.requestPasswordReset(request.body.email, contextOf(request), publicOrigin(request));
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/auth/mdo/verify-password-token',
    { config: signIn, schema: { tags, body: verifyPasswordTokenSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await auth.verifyResetToken(request.body.token);
      return { status: 'ok' as const };
    },
  );

  app.put(
    '/api/mdo/v1/update-password',
    { config: signIn, schema: { tags, body: updatePasswordByTokenSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.password, contextOf(request));
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/api/mdo/v1/users/:userId/update-password',
    {
      config: signIn,
      onRequest: app.requireAuth,
      schema: { tags, params: selfParamsSchema, body: changePasswordSchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      const claims = authOf(request);
      if (request.params.userId !== claims.userId) throw notFound('User');
      await auth.changePassword(claims, request.body.currentPassword, request.body.newPassword, contextOf(request));
      return { status: 'ok' as const };
    },
  );

  const ownUser = { tags, params: selfParamsSchema };
  app.get(
    '/api/mdo/v1/users/:userId/remembered-devices',
    { onRequest: app.requireAuth, schema: { ...ownUser, response: { 200: rememberedDevicesSchema } } },
    async (request) => {
      const claims = authOf(request);
      if (request.params.userId !== claims.userId) throw notFound('User');
      return { count: await auth.rememberedDevices(claims.userId) };
    },
  );

  app.delete(
    '/api/mdo/v1/users/:userId/remembered-devices',
    { config: renew, onRequest: app.requireAuth, schema: { ...ownUser, response: { 200: statusOkSchema } } },
    async (request) => {
      const claims = authOf(request);
      if (request.params.userId !== claims.userId) throw notFound('User');
      await auth.forgetRememberedDevices(claims.userId, contextOf(request));
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/auth/logout',
    { config: renew, schema: { tags, body: logoutRequestSchema, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async (request) => {
      await auth.logout(request.body, contextOf(request));
      return { status: 'ok' as const };
    },
  );
};
