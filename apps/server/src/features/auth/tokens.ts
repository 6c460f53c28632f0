/** Access JWTs (short-lived, HS256 via jose). Refresh tokens are opaque and live in the database. */
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

import { hmacKey, TOKEN_ISSUER } from '../../lib/signing-key.ts';
export const TOKEN_AUDIENCE = 'hcp-portal-api';

export interface AccessClaims {
  userId: string;
  tenantId: string;
  role: string;
  jti: string;
  familyId: string;
  expiresAt: Date;
  /** 'enrol': a token good only for adding a strong factor (issue 48, decision 0060). */
  scope?: 'enrol';
}

export function createTokenSigner(secret: string, ttlSeconds: number) {
  const cryptoKey = hmacKey(secret);

  async function issue(user: { id: string; tenantId: string; role: string }, familyId: string, scope?: 'enrol') {
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = new Date((now + ttlSeconds) * 1000);
    const token = await new SignJWT({ tid: user.tenantId, role: user.role, fid: familyId, ...(scope && { scp: scope }) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setJti(jti)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(await cryptoKey());
    return { token, jti, expiresAt };
  }

  /** Claims of a valid token; null for a bad signature, wrong issuer/audience or (unless allowed) expiry. */
  async function verify(token: string, options: { allowExpired?: boolean } = {}): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await cryptoKey(), {
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        algorithms: ['HS256'],
        currentDate: options.allowExpired ? new Date(0) : undefined,
      });
      if (!payload.sub || !payload.jti || typeof payload.fid !== 'string' || typeof payload.exp !== 'number') return null;
      return {
        userId: payload.sub,
        tenantId: String(payload.tid ?? ''),
        role: String(payload.role ?? ''),
        jti: payload.jti,
        familyId: payload.fid,
        expiresAt: new Date(payload.exp * 1000),
        ...(payload.scp === 'enrol' && { scope: 'enrol' as const }),
      };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  return { issue, verify, ttlSeconds };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;
