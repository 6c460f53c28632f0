/**
 * System access tokens (SMART Backend Services): short-lived JWTs for an integration client, signed with the
 * portal's key but for another audience than user sessions, so a system token never passes the portal's
 * user guard and a user's token never passes the FHIR guard.
 */
import { randomUUID } from 'node:crypto';
import { SMART_ACCESS_TOKEN_SECONDS } from '@hcp/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import { hmacKey, TOKEN_ISSUER } from './signing-key.ts';

export const SYSTEM_TOKEN_AUDIENCE = 'hcp-portal-fhir';

export interface SystemClaims {
  /** The integration client's row id. */
  clientRowId: string;
  clientId: string;
  tenantId: string;
  scopes: string[];
}

/** Verified tokens kept (a pharmacy's batch sends one token with every request); beyond it the oldest goes. */
const VERIFIED_KEPT = 256;

/** `now` (milliseconds): the clock tokens are issued, verified and kept by (tests inject their own). */
export function createSystemTokens(secret: string, now: () => number = Date.now) {
  const key = hmacKey(secret);
  // A token verified once is the same string with the same signature until it expires: its claims are kept until
  // then, so a batch of 5,000 Tasks does not verify its one token 5,000 times (an HMAC and an async hop each,
  // about 3 % of a Task write, issue 46). Only a verified token is kept, by its whole text.
  const verified = new Map<string, { claims: SystemClaims; expiresAtMs: number }>();
  return {
    async issue(claims: SystemClaims) {
      const issuedAt = Math.floor(now() / 1000);
      const token = await new SignJWT({ tid: claims.tenantId, cid: claims.clientId, scope: claims.scopes.join(' ') })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.clientRowId)
        .setJti(randomUUID())
        .setIssuer(TOKEN_ISSUER)
        .setAudience(SYSTEM_TOKEN_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + SMART_ACCESS_TOKEN_SECONDS)
        .sign(await key());
      return token;
    },
    async verify(token: string): Promise<SystemClaims | null> {
      const kept = verified.get(token);
      if (kept) {
        if (now() < kept.expiresAtMs) return kept.claims;
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, await key(), {
          issuer: TOKEN_ISSUER,
          audience: SYSTEM_TOKEN_AUDIENCE,
          algorithms: ['HS256'],
          currentDate: new Date(now()),
        });
        if (!payload.sub || typeof payload.tid !== 'string' || typeof payload.cid !== 'string') return null;
        const claims = {
          clientRowId: payload.sub,
          clientId: payload.cid,
          tenantId: payload.tid,
          scopes: String(payload.scope ?? '')
            .split(' ')
            .filter(Boolean),
        };
        if (typeof payload.exp === 'number') {
          if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value as string);
          verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
        }
        return claims;
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}
export type SystemTokens = ReturnType<typeof createSystemTokens>;
