/**
 * The signed-in guard: a valid access token (Bearer), not revoked, whose subject matches the x-user-id
 * header (spec §7 sends both; a mismatch is refused). Routes opt in with `onRequest: app.requireAuth`.
 */
import { API_HEADERS, SIGN_IN_POLICY_MESSAGES } from '@hcp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessClaims, TokenSigner } from '../features/auth/tokens.ts';
import { AppError } from '../lib/errors.ts';
import type { DenyList } from './deny-list.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessClaims | null;
  }
  interface FastifyInstance {
    requireAuth: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyContextConfig {
    /** The route serves a token good only for adding a strong factor (decision 0060). */
    duringEnrolment?: boolean;
  }
}

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

export function registerAuthGuard(app: FastifyInstance, deps: { signer: TokenSigner; denyList: DenyList }): void {
  app.decorateRequest('auth', null);
  app.decorate('requireAuth', async (request: FastifyRequest) => {
    const header = request.headers[API_HEADERS.authorization];
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const claims = token ? await deps.signer.verify(token) : null;
    if (!claims) throw new AppError('UNAUTHORIZED', SESSION_ENDED_MESSAGE);
    const userIdHeader = request.headers[API_HEADERS.userId];
    if (userIdHeader !== claims.userId) throw new AppError('UNAUTHORIZED', 'The user id header does not match the session.');
    if (await deps.denyList.isRevoked([claims.jti, claims.familyId])) throw new AppError('UNAUTHORIZED', SESSION_ENDED_MESSAGE);
    // A token good only for adding a strong factor (decision 0060) reaches only the routes that say they serve it.
    if (claims.scope === 'enrol' && request.routeOptions.config.duringEnrolment !== true) {
      throw new AppError('FORBIDDEN', SIGN_IN_POLICY_MESSAGES.enrolFirst);
    }
    request.auth = claims;
  });
}

/** The signed-in user of a guarded route (the guard guarantees it). */
export function authOf(request: FastifyRequest): AccessClaims {
  if (!request.auth) throw new AppError('UNAUTHORIZED', SESSION_ENDED_MESSAGE);
  return request.auth;
}
