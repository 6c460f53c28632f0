/**
 * SMART Backend Services sign-in (issue 19): admins register integration clients with their public keys and
 * scopes; POST /oauth2/token answers a five-minute system token for a valid signed assertion and refuses, in the
 * OAuth error shape and audited, a bad signature, another audience, an expired or too long-lived assertion, a
 * replayed jti, an unknown or disabled client, an algorithm SMART does not allow and a scope beyond the client's.
 * A system token never opens the portal's user routes.
 */
import { CLIENT_ASSERTION_TYPE, type IntegrationClient, type Tokens } from '@hcp/contract';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const PUBLIC_URL = 'https://portal.test';
const TOKEN_URL = `${PUBLIC_URL}/oauth2/token`;

let t: TestApp;
let admin: Tokens;
let rsa: { privateKey: PrivateKey; jwk: JWK };
let ec: { privateKey: PrivateKey; jwk: JWK };
let other: { privateKey: PrivateKey; jwk: JWK };
let client: IntegrationClient;

async function keyPair(alg: 'RS384' | 'ES384', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

async function register(body: Record<string, unknown>) {
  const res = await injectAs(t.app, admin, { method: 'POST', url: '/api/mdo/v1/integration-clients', payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as IntegrationClient;
}

function assertion(
  clientId: string,
  key: { privateKey: PrivateKey; jwk: JWK },
  overrides: { alg?: string; aud?: string; exp?: number; jti?: string; iss?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: overrides.alg ?? (key.jwk.alg as string), kid: key.jwk.kid as string, typ: 'JWT' })
    .setIssuer(overrides.iss ?? clientId)
    .setSubject(clientId)
    .setAudience(overrides.aud ?? TOKEN_URL)
    .setIssuedAt(now)
    .setExpirationTime(overrides.exp ?? now + 240)
    .setJti(overrides.jti ?? crypto.randomUUID())
    .sign(key.privateKey);
}

function token(clientAssertion: string, scope = 'system/Task.write', grantType = 'client_credentials') {
  return t.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: grantType,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: clientAssertion,
      scope,
    }).toString(),
  });
}

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  admin = await signIn(t.app, 'admin@demo.hcp');
  [rsa, ec, other] = await Promise.all([keyPair('RS384', 'rsa-1'), keyPair('ES384', 'ec-1'), keyPair('RS384', 'rsa-1')]);
  client = await register({
    name: 'Harbor Pharmacy systems',
    jwks: { keys: [rsa.jwk, ec.jwk] },
    scopes: ['system/Task.write', 'system/Patient.write', 'system/*.read'],
  });
});
afterAll(() => t.close());

describe('integration clients', () => {
  it('are registered by admins with a generated client id; the keys are not echoed; others get 404', async () => {
    expect(client).toMatchObject({ name: 'Harbor Pharmacy systems', keyCount: 2, jwksUrl: null, disabled: false });
    expect(client.clientId).toMatch(/^hcp-[A-Za-z0-9_-]{20,}$/);
    const list = await injectAs(t.app, admin, { method: 'GET', url: '/api/mdo/v1/integration-clients' });
    expect(list.json().records.map((c: IntegrationClient) => c.clientId)).toContain(client.clientId);
    expect(list.body).not.toContain(rsa.jwk.n as string);
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    expect((await injectAs(t.app, staff, { method: 'GET', url: '/api/mdo/v1/integration-clients' })).statusCode).toBe(404);
    // Neither both nor none of keys and key address; scopes must be SMART system scopes.
    const bad = await injectAs(t.app, admin, {
      method: 'POST',
      url: '/api/mdo/v1/integration-clients',
      payload: { name: 'Bad', scopes: ['patient/*.read'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.jwks', 'body.scopes.0']);
  });

  it('describe themselves at /.well-known/smart-configuration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/smart-configuration' });
    expect(res.json()).toMatchObject({
      token_endpoint: TOKEN_URL,
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
      grant_types_supported: ['client_credentials'],
    });
  });
});

describe('POST /oauth2/token', () => {
  it('answers a five-minute system token for a valid RS384 or ES384 assertion, never cached', async () => {
    for (const key of [rsa, ec]) {
      const res = await token(await assertion(client.clientId, key), 'system/Task.write system/Patient.read');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ token_type: 'bearer', expires_in: 300, scope: 'system/Task.write system/Patient.read' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses what SMART refuses, in the OAuth error shape, and audits each refusal with the client', async () => {
    const now = Math.floor(Date.now() / 1000);
    const used = await assertion(client.clientId, rsa);
    expect((await token(used)).statusCode).toBe(200);
    const cases: [string, Promise<Awaited<ReturnType<typeof token>>>, number, string][] = [
      ['replayed jti', token(used), 401, 'invalid_client'],
      ['signed by another key', assertion(client.clientId, other).then((a) => token(a)), 401, 'invalid_client'],
      [
        'another audience',
        assertion(client.clientId, rsa, { aud: 'https://elsewhere.test/token' }).then((a) => token(a)),
        401,
        'invalid_client',
      ],
      ['expired', assertion(client.clientId, rsa, { exp: now - 120 }).then((a) => token(a)), 401, 'invalid_client'],
      ['lives an hour', assertion(client.clientId, rsa, { exp: now + 3600 }).then((a) => token(a)), 401, 'invalid_client'],
      ['unknown client', assertion('hcp-unknown-client-0000', rsa).then((a) => token(a)), 401, 'invalid_client'],
      ['scope too wide', assertion(client.clientId, rsa).then((a) => token(a, 'system/*.write')), 400, 'invalid_scope'],
      [
        'wrong grant',
        assertion(client.clientId, rsa).then((a) => token(a, 'system/Task.write', 'password')),
        400,
        'unsupported_grant_type',
      ],
      ['not a JWT', token('not-a-jwt'), 400, 'invalid_request'],
    ];
    for (const [what, pending, status, error] of cases) {
      const res = await pending;
      expect(res.statusCode, what).toBe(status);
      expect(res.json(), what).toEqual({ error, error_description: expect.any(String) });
    }
    // A symmetric algorithm (anyone with a shared secret could sign) is refused.
    const hs = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(client.clientId)
      .setSubject(client.clientId)
      .setAudience(TOKEN_URL)
      .setExpirationTime(now + 120)
      .setJti(crypto.randomUUID())
      .sign(new TextEncoder().encode('a-shared-secret-that-should-not-work-1234'));
    expect((await token(hs)).statusCode).toBe(401);
    const refusals = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'oauth.token.refused'), eq(s.auditLog.entityId, client.clientId)));
    expect(refusals.length).toBeGreaterThanOrEqual(7);
  });

  it('stops a disabled client at once', async () => {
    const gone = await register({ name: 'Old system', jwks: { keys: [rsa.jwk] }, scopes: ['system/Task.write'] });
    expect((await token(await assertion(gone.clientId, rsa))).statusCode).toBe(200);
    const disabled = await injectAs(t.app, admin, { method: 'DELETE', url: `/api/mdo/v1/integration-clients/${gone.id}` });
    expect(disabled.json().disabled).toBe(true);
    expect((await token(await assertion(gone.clientId, rsa))).statusCode).toBe(401);
  });

  it('answers a token that never opens the portal’s user routes', async () => {
    const res = await token(await assertion(client.clientId, rsa), 'system/*.read');
    const system = res.json().access_token as string;
    for (const url of ['/api/mdo/v1/feature-flags', `/api/mdo/v1/users/${client.id}/mdo-user-details`]) {
      const denied = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${system}`, 'x-user-id': client.id },
      });
      expect(denied.statusCode, url).toBe(401);
    }
  });
});
