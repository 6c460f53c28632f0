/**
 * POST /oauth2/token for SMART Backend Services (RFC 6749 §4.4 with an RFC 7523 client assertion): checks the
 * assertion's signature against the client's registered keys (RS384/ES384), iss = sub = client id, aud = this
 * endpoint, an expiry at most five minutes ahead, a jti never seen before, and scopes within the client's; then
 * answers a five-minute system token. Every refusal is the OAuth error shape and is audited with the client id.
 */
import {
  SMART_ACCESS_TOKEN_SECONDS,
  SMART_ASSERTION_ALGORITHMS,
  SMART_ASSERTION_MAX_SECONDS,
  scopeCovers,
  tokenRequestSchema,
} from '@hcp/contract';
import { createLocalJWKSet, decodeJwt, errors, type JSONWebKeySet, jwtVerify } from 'jose';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { OutboundGuard } from '../../lib/outbound/guard.ts';
import { keySetCache } from '../../lib/outbound/key-sets.ts';
import type { SystemTokens } from '../../lib/system-tokens.ts';
import * as repo from './repository.ts';

/** Clock skew allowed between the client and us when reading its assertion's times. */
const SKEW_SECONDS = 30;

export type TokenAnswer =
  | { ok: true; body: { access_token: string; token_type: 'bearer'; expires_in: number; scope: string } }
  | { ok: false; status: 400 | 401; body: { error: string; error_description: string } };

/** One answer whatever stopped the read, so the token endpoint tells nobody what lies inside our network. */
export const KEY_SET_UNREADABLE = "The client's key set (jwksUrl) could not be read.";

const refuse = (status: 400 | 401, error: string, description: string): TokenAnswer => ({
  ok: false,
  status,
  body: { error, error_description: description },
});

export function createTokenEndpoint(deps: { db: Database; tokens: SystemTokens; guard: OutboundGuard }) {
  const { db } = deps;
  const remoteKeys = keySetCache(deps.guard);

  async function answer(form: unknown, tokenUrl: string): Promise<TokenAnswer & { clientId?: string }> {
    const parsed = tokenRequestSchema.safeParse(form);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join('.') || 'request';
      return refuse(400, field === 'grant_type' ? 'unsupported_grant_type' : 'invalid_request', `Missing or invalid ${field}.`);
    }
    const request = parsed.data;
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(request.client_assertion).iss;
    } catch {
      return refuse(400, 'invalid_request', 'client_assertion is not a JWT.');
    }
    const client = issuer ? await repo.enabledClient(db, issuer) : null;
    if (!client)
      return { ...refuse(401, 'invalid_client', 'Unknown or disabled client.'), ...(issuer ? { clientId: issuer } : {}) };
    const withClient = (a: TokenAnswer) => ({ ...a, clientId: client.clientId });

    const keys = client.jwks ? createLocalJWKSet(client.jwks as JSONWebKeySet) : remoteKeys(client.jwksUrl as string);
    let claims: { exp?: number; jti?: string };
    try {
      ({ payload: claims } = await jwtVerify(request.client_assertion, keys, {
        algorithms: [...SMART_ASSERTION_ALGORITHMS],
        issuer: client.clientId,
        subject: client.clientId,
        audience: tokenUrl,
        clockTolerance: SKEW_SECONDS,
        requiredClaims: ['exp', 'jti'],
      }));
    } catch (error) {
      if (error instanceof errors.JOSEError && error.code !== 'ERR_JWKS_TIMEOUT') {
        return withClient(refuse(401, 'invalid_client', `The client assertion was refused (${error.code}).`));
      }
      // The client's key set could not be read: refused by the outbound guard, no connection, TLS or DNS failure,
      // too slow or too large. The client's problem to fix, in the OAuth shape, never a 500 (issue 43).
      return withClient(refuse(401, 'invalid_client', KEY_SET_UNREADABLE));
    }
    const now = Math.floor(Date.now() / 1000);
    if ((claims.exp as number) > now + SMART_ASSERTION_MAX_SECONDS + SKEW_SECONDS) {
      return withClient(refuse(401, 'invalid_client', 'The client assertion must expire within five minutes.'));
    }
    const requested = request.scope.split(/\s+/).filter(Boolean);
    const outside = requested.filter((scope) => !client.scopes.some((granted) => scopeCovers(granted, scope)));
    if (outside.length > 0) return withClient(refuse(400, 'invalid_scope', `Not allowed for this client: ${outside.join(' ')}.`));
    // Last, so a refused assertion can be corrected and sent again with the same jti.
    if (!(await repo.rememberAssertion(db, client.clientId, claims.jti as string, new Date((claims.exp as number) * 1000)))) {
      return withClient(refuse(401, 'invalid_client', 'This client assertion was used before (jti).'));
    }
    const access = await deps.tokens.issue({
      clientRowId: client.id,
      clientId: client.clientId,
      tenantId: client.tenantId,
      scopes: requested,
    });
    return withClient({
      ok: true,
      body: { access_token: access, token_type: 'bearer', expires_in: SMART_ACCESS_TOKEN_SECONDS, scope: requested.join(' ') },
    });
  }

  return {
    async token(form: unknown, ctx: { tokenUrl: string; requestId: string; ip: string | null }): Promise<TokenAnswer> {
      const result = await answer(form, ctx.tokenUrl);
      const { clientId, ...outcome } = result;
      await writeAudit(db, {
        actorUserId: null,
        action: outcome.ok ? 'oauth.token.issued' : 'oauth.token.refused',
        entityType: 'integration_client',
        entityId: clientId ?? null,
        requestId: ctx.requestId,
        ip: ctx.ip,
        details: outcome.ok
          ? { scope: outcome.body.scope }
          : { error: outcome.body.error, reason: outcome.body.error_description },
      });
      return outcome;
    },
  };
}
