import { DASHBOARD, errorBodySchema, MFA_MESSAGES } from '@hcp/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { AUTH_LIMITS, LOGIN_FAILED_MESSAGE, lockSecondsAfter } from '../src/features/auth/service.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { authHeaders, injectAs, login, signIn } from './support/auth.ts';
import { errorPaths } from './support/errors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const auditActions = async (userEmail: string) => {
  const [user] = await t.database.db.select().from(s.users).where(eq(s.users.email, userEmail));
  const rows = await t.database.db
    .select()
    .from(s.auditLog)
    .where(eq(s.auditLog.entityId, user?.id ?? ''))
    .orderBy(desc(s.auditLog.id));
  return rows.map((r) => r.action);
};

describe('POST /auth-service/login', () => {
  it('signs a user without MFA straight in', async () => {
    const res = await login(t.app, 'DR.MORGAN@demo.hcp');
    expect(res.statusCode).toBe(200);
    const { jwtToken } = res.json();
    expect(Object.keys(res.json())).toEqual(['jwtToken']);
    expect(jwtToken.accessToken.split('.')).toHaveLength(3);
    expect(jwtToken.refreshToken.length).toBeGreaterThanOrEqual(43);
    expect(await auditActions('dr.morgan@demo.hcp')).toContain('auth.login.success');
  });

  it('answers one generic 401 for a wrong password and for an unknown e-mail', async () => {
    const wrong = await login(t.app, 'staff.lee@demo.hcp', 'not-the-password');
    const unknown = await login(t.app, 'nobody@nowhere.example', 'whatever-password');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: LOGIN_FAILED_MESSAGE } });
    }
    const [user] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'staff.lee@demo.hcp'));
    expect(user?.failedLogins).toBe(1);
    // A later success clears the counter.
    await signIn(t.app, 'staff.lee@demo.hcp');
    const [after] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'staff.lee@demo.hcp'));
    expect(after?.failedLogins).toBe(0);
  });

  it('rejects a malformed payload with field details', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth-service/login',
      payload: { email: 'x', password: '', dashboard: 'Other' },
    });
    expect(res.statusCode).toBe(400);
    const paths = errorPaths(res);
    expect(paths).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.dashboard']));
  });

  it('locks an account after five failures, with back-off, even for the right password', async () => {
    expect([4, 5, 6, 7, 20].map(lockSecondsAfter)).toEqual([0, 60, 120, 240, 1800]);
    for (let i = 0; i < AUTH_LIMITS.maxFailedLogins; i += 1) await login(t.app, 'sales@demo.hcp', 'wrong-password');
    const locked = await login(t.app, 'sales@demo.hcp');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorBodySchema.parse(locked.json()).error.message).toMatch(/Too many failed sign-ins/);
    // Once the lock has passed the right password works again.
    await t.database.db
      .update(s.users)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(s.users.email, 'sales@demo.hcp'));
    expect((await login(t.app, 'sales@demo.hcp')).statusCode).toBe(200);
  });

  it('sends a user of the other brand to their own portal', async () => {
    const res = await login(t.app, 'dr.kim@harrow.demo.hcp');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirectionUrl: 'http://harrow.localhost/login' });
    const onHarrow = await t.app.inject({
      method: 'POST',
      url: '/auth-service/login',
      headers: { host: 'harrow.localhost:3000' },
      payload: { email: 'dr.kim@harrow.demo.hcp', password: 'demo-password-2026', dashboard: DASHBOARD },
    });
    expect(onHarrow.json().jwtToken).toBeDefined();
  });

  it('answers the legacy shape on /auth/mdo/login', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/mdo/login',
      payload: { email: 'admin@demo.hcp', password: 'demo-password-2026', dashboard: DASHBOARD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ authToken: { userID: expect.any(String) }, maskedEmail: null, maskedPhone: null });
  });
});

describe('MFA', () => {
  async function challenge(extra: Record<string, unknown> = {}) {
    const res = await login(t.app, 'dr.patel@demo.hcp', undefined, extra);
    expect(res.statusCode).toBe(200);
    const code = /\b(\d{6})\b/.exec(t.mail.at(-1)?.text ?? '')?.[1] as string;
    return { body: res.json(), code };
  }
  const verify = (authToken: string, mfaCode: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: '/auth-service/mfa', payload: { authToken, mfaCode, dashboard: DASHBOARD, ...extra } });

  it('challenges with masked contacts and mails a six-digit code through the outbox', async () => {
    const { body, code } = await challenge();
    expect(body.mfaResponse).toEqual({
      maskedEmail: 'd******l@demo.hcp',
      maskedPhone: '(***) ***-0112',
      userToken: expect.any(String),
    });
    expect(code).toMatch(/^\d{6}$/);
    expect(t.mail.at(-1)).toMatchObject({ to: 'dr.patel@demo.hcp', kind: 'mfa-code' });
    const [row] = await t.database.db.select().from(s.outbox).orderBy(desc(s.outbox.createdAt)).limit(1);
    expect(row?.recipient).toBe('dr.patel@demo.hcp');
  });

  it("answers a wrong code with 404 'Incorrect verification code.' and the right one with tokens, once", async () => {
    const { body, code } = await challenge();
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await verify(body.mfaResponse.userToken, wrongCode);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error.message).toBe(MFA_MESSAGES.incorrect);
    const ok = await verify(body.mfaResponse.userToken, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      userID: expect.any(String),
    });
    expect(ok.json().rememberMeToken).toBeUndefined();
    const again = await verify(body.mfaResponse.userToken, code);
    expect(again.statusCode).toBe(401);
  });

  it('ends the challenge after five wrong codes', async () => {
    const { body, code } = await challenge();
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < AUTH_LIMITS.mfaMaxAttempts; i += 1)
      expect((await verify(body.mfaResponse.userToken, wrongCode)).statusCode).toBe(404);
    expect((await verify(body.mfaResponse.userToken, code)).statusCode).toBe(401);
  });

  it('refuses an expired code', async () => {
    const { body, code } = await challenge();
    await t.database.db
      .update(s.mfaChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`true`);
    expect((await verify(body.mfaResponse.userToken, code)).statusCode).toBe(401);
  });

  it('remembers a device for 30 days when asked', async () => {
    const { body, code } = await challenge();
    const ok = await verify(body.mfaResponse.userToken, code, { rememberMe: true });
    const { rememberMeToken } = ok.json();
    expect(rememberMeToken).toEqual(expect.any(String));
    const next = await login(t.app, 'dr.patel@demo.hcp', undefined, { rememberMeToken });
    expect(next.json().jwtToken).toBeDefined();
    // Someone else's remember-me token does not skip MFA.
    const other = await login(t.app, 'dr.patel@demo.hcp', undefined, { rememberMeToken: 'forged-token' });
    expect(other.json().mfaResponse).toBeDefined();
    expect(await auditActions('dr.patel@demo.hcp')).toEqual(
      expect.arrayContaining(['auth.mfa.sent', 'auth.mfa.success', 'auth.mfa.failure']),
    );
  });
});

describe('session tokens', () => {
  const refresh = (refreshToken: string, url = '/auth-service/refresh') =>
    t.app.inject({ method: 'POST', url, payload: { refreshToken, dashboard: DASHBOARD } });

  it('rotate on every refresh; the new access token works', async () => {
    const tokens = await signIn(t.app, 'admin@demo.hcp');
    const res = await refresh(tokens.refreshToken);
    expect(res.statusCode).toBe(200);
    const next = res.json();
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    const details = await injectAs(
      t.app,
      { accessToken: next.accessToken, userID: tokens.userID },
      { method: 'GET', url: `/api/mdo/v1/users/${tokens.userID}/mdo-user-details` },
    );
    expect(details.statusCode).toBe(200);
    // The legacy route rotates the same way.
    expect((await refresh(next.refreshToken, '/auth/refresh-token')).statusCode).toBe(200);
  });

  it('a rotated token used again soon after gets its own fresh pair in the same family (a page that navigated away before storing the answer, or two tabs)', async () => {
    const tokens = await signIn(t.app, 'admin@demo.hcp');
    const next = (await refresh(tokens.refreshToken)).json();
    const again = await refresh(tokens.refreshToken);
    expect(again.statusCode).toBe(200);
    expect(again.json().refreshToken).not.toBe(next.refreshToken);
    // Both lines of the family go on working; nothing was revoked.
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
    expect((await refresh(again.json().refreshToken)).statusCode).toBe(200);
    expect(await auditActions('admin@demo.hcp')).toContain('auth.refresh.race');
  });

  it('a rotated token reused later revokes the whole family, access tokens included', async () => {
    const tokens = await signIn(t.app, 'admin@demo.hcp');
    const next = (await refresh(tokens.refreshToken)).json();
    const old = new Date(Date.now() - (AUTH_LIMITS.refreshReuseGraceSeconds + 5) * 1000);
    await t.database.db
      .update(s.refreshTokens)
      .set({ rotatedAt: old })
      .where(and(sql`${s.refreshTokens.rotatedAt} is not null`));
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(401);
    expect((await refresh(next.refreshToken)).statusCode).toBe(401);
    const denied = await injectAs(
      t.app,
      { accessToken: next.accessToken, userID: tokens.userID },
      { method: 'GET', url: '/api/mdo/v1/feature-flags' },
    );
    expect(denied.statusCode).toBe(401);
    expect(await auditActions('admin@demo.hcp')).toContain('auth.refresh.reuse');
  });

  it('an unknown refresh token is refused', async () => {
    expect((await refresh('made-up-token')).statusCode).toBe(401);
  });

  it('logout revokes the access token and the refresh family, and can be repeated', async () => {
    const tokens = await signIn(t.app, 'staff.lee@demo.hcp');
    const payload = { userId: tokens.userID, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    const out = await t.app.inject({ method: 'POST', url: '/auth/logout', payload });
    expect(out.statusCode).toBe(200);
    expect((await injectAs(t.app, tokens, { method: 'GET', url: '/api/mdo/v1/feature-flags' })).statusCode).toBe(401);
    expect((await refresh(tokens.refreshToken)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout', payload })).statusCode).toBe(200);
    expect(await auditActions('staff.lee@demo.hcp')).toContain('auth.logout');
  });

  it('logout with another user id revokes nothing', async () => {
    const tokens = await signIn(t.app, 'staff.lee@demo.hcp');
    const other = await signIn(t.app, 'admin@demo.hcp');
    await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      payload: { userId: other.userID, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
    });
    expect((await injectAs(t.app, tokens, { method: 'GET', url: '/api/mdo/v1/feature-flags' })).statusCode).toBe(200);
  });
});

describe('the signed-in guard', () => {
  it('refuses a missing, tampered, expired or foreign token', async () => {
    const tokens = await signIn(t.app, 'dr.morgan@demo.hcp');
    const url = '/api/mdo/v1/feature-flags';
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const tampered = `${tokens.accessToken.slice(0, -3)}abc`;
    expect((await injectAs(t.app, { ...tokens, accessToken: tampered }, { method: 'GET', url })).statusCode).toBe(401);
    const foreignKey = new TextEncoder().encode('another-key-another-key-another-key-1234');
    const forged = await new SignJWT({ fid: 'f', tid: 't', role: 'provider.admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(tokens.userID)
      .setJti('j')
      .setIssuer('hcp-portal')
      .setAudience('hcp-portal-api')
      .setExpirationTime('5m')
      .sign(foreignKey);
    expect((await injectAs(t.app, { ...tokens, accessToken: forged }, { method: 'GET', url })).statusCode).toBe(401);
    const expiredApp = await buildTestApp({ database: t.database, env: { ACCESS_TOKEN_TTL_SECONDS: '5' } });
    const short = await signIn(expiredApp.app, 'dr.morgan@demo.hcp');
    await new Promise((r) => setTimeout(r, 6000));
    expect((await injectAs(t.app, short, { method: 'GET', url })).statusCode).toBe(401);
    await expiredApp.app.close();
  }, 20_000);

  it('refuses a user id header that does not match the token', async () => {
    const tokens = await signIn(t.app, 'dr.morgan@demo.hcp');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/mdo/v1/feature-flags',
      headers: { ...authHeaders(tokens), 'x-user-id': 'someone-else' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('user details and feature flags', () => {
  it('answers every user field of spec §3 for the signed-in prescriber', async () => {
    const tokens = await signIn(t.app, 'dr.morgan@demo.hcp');
    const res = await injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v1/users/${tokens.userID}/mdo-user-details` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      userId: tokens.userID,
      userName: 'Dr. Alex Morgan',
      role: 'mdo.user',
      mdOfficeUser: { userType: 'mdo_user.prescriber', role: 'MD' },
      mdOfficePrefs: { prescribeVia: 'eRx', harrowPortalAccess: true, prescribingEnabled: true, notOnboarded: false },
      mdOfficeUserPrefs: { skipPriorAuthDismissNotice: false, skipErxConfirmation: false },
      details: { mdOfficeId: expect.any(String), mdStaffId: expect.any(String) },
      isVAMPracticeUser: false,
    });
  });

  it("answers 404 for another user's details", async () => {
    const tokens = await signIn(t.app, 'dr.morgan@demo.hcp');
    const other = await signIn(t.app, 'staff.lee@demo.hcp');
    const res = await injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v1/users/${other.userID}/mdo-user-details` });
    expect(res.statusCode).toBe(404);
  });

  it('reads the feature flags from the database', async () => {
    const tokens = await signIn(t.app, 'dr.morgan@demo.hcp');
    const url = '/api/mdo/v1/feature-flags';
    expect((await injectAs(t.app, tokens, { method: 'GET', url })).json()).toEqual({
      isHarrowPortalEnabled: true,
      isHcpPrescribingEnabled: true,
    });
    await t.database.db.update(s.featureFlags).set({ enabled: false }).where(eq(s.featureFlags.key, 'isHcpPrescribingEnabled'));
    expect((await injectAs(t.app, tokens, { method: 'GET', url })).json()).toEqual({
      isHarrowPortalEnabled: true,
      isHcpPrescribingEnabled: false,
    });
    await t.database.db.update(s.featureFlags).set({ enabled: true }).where(eq(s.featureFlags.key, 'isHcpPrescribingEnabled'));
  });
});
