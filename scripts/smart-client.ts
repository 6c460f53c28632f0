/**
 * A system's side of SMART Backend Services: sign a client assertion (RFC 7523) with the private key and trade it
 * at the token endpoint for an access token. Used by the pharmacy simulator and the FHIR bench.
 */
import { randomUUID } from 'node:crypto';
import { CLIENT_ASSERTION_TYPE } from '@hcp/contract';
import { type CryptoKey, type KeyObject, SignJWT } from 'jose';

/** A client assertion (RFC 7523) for the token endpoint at `tokenUrl`: iss = sub = the client id, four minutes. */
export function clientAssertion(options: {
  tokenUrl: string;
  clientId: string;
  kid: string;
  alg: 'ES384' | 'RS384';
  privateKey: CryptoKey | KeyObject | Uint8Array;
}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: options.alg, kid: options.kid })
    .setIssuer(options.clientId)
    .setSubject(options.clientId)
    .setAudience(options.tokenUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + 240)
    .setJti(randomUUID())
    .sign(options.privateKey);
}

export async function systemAccessToken(options: {
  /** The portal's address, e.g. http://localhost:3000 (the assertion's audience is its token endpoint). */
  base: string;
  clientId: string;
  kid: string;
  alg: 'ES384' | 'RS384';
  privateKey: CryptoKey | KeyObject | Uint8Array;
  scope: string;
}): Promise<string> {
  const tokenUrl = `${options.base}/oauth2/token`;
  const assertion = await clientAssertion({ ...options, tokenUrl });
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: assertion,
      scope: options.scope,
    }),
  });
  const body = (await res.json()) as { access_token?: string; error_description?: string };
  if (!res.ok || !body.access_token) throw new Error(`sign-in refused: ${body.error_description ?? res.status}`);
  return body.access_token;
}
