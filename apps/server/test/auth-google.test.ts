/** Google sign-in against our own JWKS (a local key pair served over HTTP: no network, no Google). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GOOGLE_MESSAGES } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs } from './support/auth.ts';

const CLIENT_ID = 'test-client.apps.googleusercontent.com';
type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let t: TestApp;
let jwks: Server;
let trusted: Key;
let stranger: Key;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  trusted = pair.privateKey;
  stranger = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  jwks = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/certs`;
  t = await buildTestApp({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: url } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
});

interface Claims {
  email?: string;
  email_verified?: boolean;
  sub?: string;
  aud?: string;
  iss?: string;
  expiresIn?: string | number;
}
function idToken(claims: Claims = {}, key: Key = trusted) {
  const { email = 'dr.morgan@demo.hcp', email_verified = true, sub = 'google-sub-morgan', aud = CLIENT_ID } = claims;
  return new SignJWT({ email, email_verified })
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .setSubject(sub)
    .setIssuer(claims.iss ?? 'https://accounts.google.com')
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(claims.expiresIn ?? '5m')
    .sign(key);
}
const googleLogin = (token: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: `/auth/mdo/google/${token}`, payload });

describe('POST /auth/mdo/google/{token}', () => {
  it('signs an existing user in with tokens that work, binds the Google account and audits it', async () => {
    const res = await googleLogin(await idToken());
    expect(res.statusCode).toBe(200);
    const { jwtToken } = res.json();
    expect(jwtToken).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    const me = await injectAs(t.app, jwtToken, { method: 'GET', url: `/api/mdo/v1/users/${jwtToken.userID}/mdo-user-details` });
    expect(me.statusCode).toBe(200);
    const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, jwtToken.userID));
    expect(user?.email).toBe('dr.morgan@demo.hcp');
    expect(user?.googleSubject).toBe('google-sub-morgan');
    const audits = await t.database.db.select().from(s.auditLog).where(eq(s.auditLog.actorUserId, jwtToken.userID));
    expect(audits.some((a) => a.action === 'auth.login.success' && (a.details as { method?: string }).method === 'google')).toBe(
      true,
    );
  });

  it('still asks an MFA user for a code', async () => {
    const res = await googleLogin(await idToken({ email: 'dr.patel@demo.hcp', sub: 'google-sub-patel' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().mfaResponse).toMatchObject({ maskedEmail: 'd******l@demo.hcp', userToken: expect.any(String) });
    expect(t.mail.at(-1)).toMatchObject({ to: 'dr.patel@demo.hcp', kind: 'mfa-code' });
  });

  it.each([
    ['signed by another key', async () => idToken({}, stranger)],
    ['for another audience', async () => idToken({ aud: 'someone-else.apps.googleusercontent.com' })],
    ['expired', async () => idToken({ expiresIn: Math.floor(Date.now() / 1000) - 120 })],
    ['from another issuer', async () => idToken({ iss: 'https://evil.example.com' })],
    ['with an unverified e-mail', async () => idToken({ email_verified: false })],
    ['that is not a JWT at all', async () => 'not-a-jwt'],
  ])('refuses a token %s with one 401', async (_name, make) => {
    const res = await googleLogin(await make());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: GOOGLE_MESSAGES.invalid } });
  });

  it('refuses a verified Google address that has no portal account, with a clear error', async () => {
    const res = await googleLogin(await idToken({ email: 'stranger@gmail.example', sub: 'google-sub-stranger' }));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe(GOOGLE_MESSAGES.unknownUser);
    const [row] = await t.database.db.select().from(s.auditLog).where(eq(s.auditLog.action, 'auth.google.failure'));
    expect(row).toBeDefined();
    expect(JSON.stringify(row?.details)).not.toContain('eyJ');
  });

  it('refuses a second Google account for an address already bound to another one', async () => {
    await googleLogin(await idToken({ email: 'staff.lee@demo.hcp', sub: 'google-sub-lee' }));
    const res = await googleLogin(await idToken({ email: 'staff.lee@demo.hcp', sub: 'google-sub-impostor' }));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe(GOOGLE_MESSAGES.unknownUser);
  });

  it('offers the client id to the login page and allows Google in the CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth-service/options' });
    expect(res.json()).toEqual({ googleClientId: CLIENT_ID });
    expect(String(res.headers['content-security-policy'])).toContain('https://accounts.google.com/gsi/client');
  });
});

describe('without a Google client id', () => {
  it('hides the button (no client id), answers 404 and keeps Google out of the CSP', async () => {
    const plain = await buildTestApp({ database: t.database });
    try {
      const options = await plain.app.inject({ method: 'GET', url: '/auth-service/options' });
      expect(options.json()).toEqual({ googleClientId: null });
      expect(String(options.headers['content-security-policy'])).not.toContain('accounts.google.com');
      const res = await plain.app.inject({ method: 'POST', url: `/auth/mdo/google/${await idToken()}`, payload: {} });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(GOOGLE_MESSAGES.disabled);
    } finally {
      await plain.app.close();
    }
  });
});
