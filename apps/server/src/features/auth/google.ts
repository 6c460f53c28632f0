/**
 * Google sign-in: the browser gets an ID token from Google Identity Services and hands it to us. We
 * trust it only after checking its signature against Google's published keys (JWKS, cached by jose),
 * the issuer, the audience (our client id), the expiry and that Google verified the e-mail address.
 */
import { type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { OutboundGuard } from '../../lib/outbound/guard.ts';
import { remoteKeySet } from '../../lib/outbound/key-sets.ts';

export const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];

export interface GoogleIdentity {
  subject: string;
  email: string;
}

export interface GoogleVerifier {
  clientId: string | undefined;
  /** The verified identity, or null for any token we must not trust (never throws for a bad token). */
  verify(idToken: string): Promise<GoogleIdentity | null>;
}

export function createGoogleVerifier(options: {
  clientId: string | undefined;
  jwksUrl: string;
  guard: OutboundGuard;
}): GoogleVerifier {
  let keys: JWTVerifyGetKey | null = null;
  return {
    clientId: options.clientId,
    async verify(idToken) {
      if (!options.clientId) return null;
      keys ??= remoteKeySet(options.guard, options.jwksUrl);
      try {
        const { payload } = await jwtVerify(idToken, keys, {
          issuer: GOOGLE_ISSUERS,
          audience: options.clientId,
          algorithms: ['RS256'],
          clockTolerance: 30,
          requiredClaims: ['exp', 'sub', 'email'],
        });
        const verified = payload.email_verified === true || payload.email_verified === 'true';
        if (!verified || typeof payload.email !== 'string' || !payload.sub) return null;
        return { subject: payload.sub, email: payload.email.trim().toLowerCase() };
      } catch {
        return null;
      }
    },
  };
}
