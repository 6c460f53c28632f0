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

export function createSystemTokens(secret: string) {
  const key = hmacKey(secret);
  return {
    async issue(claims: SystemClaims) {
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ tid: claims.tenantId, cid: claims.clientId, scope: claims.scopes.join(' ') })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.clientRowId)
        .setJti(randomUUID())
        .setIssuer(TOKEN_ISSUER)
        .setAudience(SYSTEM_TOKEN_AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + SMART_ACCESS_TOKEN_SECONDS)
        .sign(await key());
      return token;
    },
    async verify(token: string): Promise<SystemClaims | null> {
      try {
        const { payload } = await jwtVerify(token, await key(), {
          issuer: TOKEN_ISSUER,
          audience: SYSTEM_TOKEN_AUDIENCE,
          algorithms: ['HS256'],
        });
        if (!payload.sub || typeof payload.tid !== 'string' || typeof payload.cid !== 'string') return null;
        return {
          clientRowId: payload.sub,
          clientId: payload.cid,
          tenantId: payload.tid,
          scopes: String(payload.scope ?? '')
            .split(' ')
            .filter(Boolean),
        };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}
export type SystemTokens = ReturnType<typeof createSystemTokens>;
