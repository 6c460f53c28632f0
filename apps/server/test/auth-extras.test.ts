/** MFA resend, remembered-device revocation, purge of expired sign-in rows, and SMTP delivery. */
import type { AddressInfo } from 'node:net';
import { DASHBOARD, MFA_RESEND, MFA_RESEND_MESSAGES } from '@hcp/contract';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { purgeExpired } from '../src/features/auth/repository.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, login } from './support/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const codeOf = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1] as string;
const verify = (authToken: string, mfaCode: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: '/auth-service/mfa', payload: { authToken, mfaCode, dashboard: DASHBOARD, ...extra } });
const resend = (authToken: string) =>
  t.app.inject({ method: 'POST', url: '/auth-service/mfa/resend', payload: { authToken, dashboard: DASHBOARD } });
/** Moves the last code's send time back so the 30-second spacing does not apply. */
const age = (seconds: number) =>
  t.database.db.update(s.mfaChallenges).set({ sentAt: sql`now() - make_interval(secs => ${seconds})` });

async function challenge(extra: Record<string, unknown> = {}) {
  const res = await login(t.app, 'dr.patel@demo.hcp', undefined, extra);
  expect(res.statusCode).toBe(200);
  return { userToken: res.json().mfaResponse.userToken as string, code: codeOf(t.mail.at(-1)?.text) };
}

describe('MFA verify payload', () => {
  it("accepts the code as authCode (spec §3: mfaCode is 'the same as authCode'), and refuses a body with neither", async () => {
    const { userToken, code } = await challenge();
    const none = await t.app.inject({ method: 'POST', url: '/auth-service/mfa', payload: { authToken: userToken } });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details).toEqual([{ path: 'body.mfaCode', message: 'Enter the 6-digit code.' }]);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/auth-service/mfa',
      payload: { authToken: userToken, authCode: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.statusCode).toBe(404);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/auth-service/mfa',
      payload: { authToken: userToken, authCode: code, dashboard: DASHBOARD },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().accessToken).toEqual(expect.any(String));
  });
});

describe('MFA resend', () => {
  it('mails a new code for the same challenge; the old code stops working, the new one signs in', async () => {
    const first = await challenge();
    await age(31);
    const res = await resend(first.userToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    const second = codeOf(t.mail.at(-1)?.text);
    expect(t.mail.at(-1)).toMatchObject({ to: 'dr.patel@demo.hcp', kind: 'mfa-code' });
    if (second !== first.code) expect((await verify(first.userToken, first.code)).statusCode).toBe(404);
    const ok = await verify(first.userToken, second);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().accessToken).toEqual(expect.any(String));
    // A used challenge cannot be resent.
    await age(31);
    expect((await resend(first.userToken)).statusCode).toBe(401);
  });

  it('asks to wait 30 seconds between codes (429 with Retry-After)', async () => {
    const { userToken } = await challenge();
    const res = await resend(userToken);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json().error.message).toMatch(/^Please wait \d+ seconds before asking for another code\.$/);
  });

  it(`sends at most ${MFA_RESEND.maxResends} new codes, and keeps counting wrong tries across them`, async () => {
    const { userToken, code } = await challenge();
    const mailsBefore = t.mail.length;
    for (let i = 0; i < MFA_RESEND.maxResends; i += 1) {
      await age(31);
      expect((await resend(userToken)).statusCode).toBe(200);
    }
    await age(31);
    const over = await resend(userToken);
    expect(over.statusCode).toBe(401);
    expect(over.json().error.message).toBe(MFA_RESEND_MESSAGES.failed);
    expect(t.mail.length - mailsBefore).toBe(MFA_RESEND.maxResends);
    const [row] = await t.database.db.select().from(s.mfaChallenges).orderBy(sql`created_at desc`).limit(1);
    expect(row?.resends).toBe(MFA_RESEND.maxResends);
    expect(code).toMatch(/^\d{6}$/);
  });

  it('refuses an unknown user token and a malformed body without mailing anything', async () => {
    const before = t.mail.length;
    expect((await resend('not-a-real-token')).statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'POST', url: '/auth-service/mfa/resend', payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    expect(t.mail.length).toBe(before);
  });
});

describe('remembered devices', () => {
  async function rememberedSignIn() {
    const { userToken, code } = await challenge();
    const ok = await verify(userToken, code, { rememberMe: true });
    expect(ok.statusCode).toBe(200);
    return ok.json() as { accessToken: string; userID: string; rememberMeToken: string };
  }

  it('counts them and forgets them all on request: the next sign-in asks for a code again', async () => {
    const tokens = await rememberedSignIn();
    const count = await injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v1/users/${tokens.userID}/remembered-devices` });
    expect(count.statusCode).toBe(200);
    expect(count.json().count).toBeGreaterThanOrEqual(1);
    expect(
      (await login(t.app, 'dr.patel@demo.hcp', undefined, { rememberMeToken: tokens.rememberMeToken })).json().jwtToken,
    ).toBeDefined();

    const forget = await injectAs(t.app, tokens, {
      method: 'DELETE',
      url: `/api/mdo/v1/users/${tokens.userID}/remembered-devices`,
    });
    expect(forget.statusCode).toBe(200);
    const after = await login(t.app, 'dr.patel@demo.hcp', undefined, { rememberMeToken: tokens.rememberMeToken });
    expect(after.json().mfaResponse).toBeDefined();
    const none = await injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v1/users/${tokens.userID}/remembered-devices` });
    expect(none.json()).toEqual({ count: 0 });
    const [audit] = await t.database.db
      .select()
      .from(s.auditLog)
      .where(eq(s.auditLog.action, 'auth.devices.forgotten'))
      .orderBy(sql`id desc`)
      .limit(1);
    expect(audit?.actorUserId).toBe(tokens.userID);
  });

  it("are another user's business: 404 for someone else's id, 401 without a token", async () => {
    const tokens = await rememberedSignIn();
    const [other] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'dr.morgan@demo.hcp'));
    const res = await injectAs(t.app, tokens, { method: 'DELETE', url: `/api/mdo/v1/users/${other?.id}/remembered-devices` });
    expect(res.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/mdo/v1/users/${tokens.userID}/remembered-devices` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('are forgotten by a signed-in password change', async () => {
    const tokens = await rememberedSignIn();
    const change = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `/api/mdo/v1/users/${tokens.userID}/update-password`,
      payload: { currentPassword: 'demo-password-2026', newPassword: 'a-new-password-2026' },
    });
    expect(change.statusCode).toBe(200);
    const next = await login(t.app, 'dr.patel@demo.hcp', 'a-new-password-2026', { rememberMeToken: tokens.rememberMeToken });
    expect(next.json().mfaResponse).toBeDefined();
    // Put the demo password back for the other tests of this file.
    const again = await verify(next.json().mfaResponse.userToken, codeOf(t.mail.at(-1)?.text));
    await injectAs(t.app, again.json(), {
      method: 'POST',
      url: `/api/mdo/v1/users/${tokens.userID}/update-password`,
      payload: { currentPassword: 'a-new-password-2026', newPassword: 'demo-password-2026' },
    });
  });
});

describe('purge of expired sign-in rows', () => {
  it('deletes only rows nobody can use any more', async () => {
    const db = t.database.db;
    const [user] = await db.select().from(s.users).where(eq(s.users.email, 'staff.lee@demo.hcp'));
    const userId = user?.id as string;
    const longAgo = new Date(Date.now() - 3 * 86_400_000);
    const future = new Date(Date.now() + 86_400_000);
    await db.insert(s.revokedTokens).values([
      { id: 'purge-old', kind: 'jti', expiresAt: longAgo },
      { id: 'purge-live', kind: 'jti', expiresAt: future },
    ]);
    await db.insert(s.rememberMeDevices).values([
      { userId, tokenHash: 'purge-old-device', expiresAt: longAgo },
      { userId, tokenHash: 'purge-live-device', expiresAt: future },
    ]);
    await db.insert(s.refreshTokens).values([
      { familyId: crypto.randomUUID(), userId, tokenHash: 'purge-old-refresh', expiresAt: longAgo },
      { familyId: crypto.randomUUID(), userId, tokenHash: 'purge-live-refresh', expiresAt: future },
    ]);
    await db
      .insert(s.loginAttempts)
      .values({ email: 'purge@example.com', succeeded: false, createdAt: new Date(Date.now() - 40 * 86_400_000) });

    const purged = await purgeExpired(db, new Date());
    expect(purged.revokedTokens).toBeGreaterThanOrEqual(1);
    expect(purged.rememberedDevices).toBeGreaterThanOrEqual(1);
    expect(purged.refreshTokens).toBeGreaterThanOrEqual(1);
    expect(purged.loginAttempts).toBeGreaterThanOrEqual(1);
    const ids = (await db.select({ id: s.revokedTokens.id }).from(s.revokedTokens)).map((r) => r.id);
    expect(ids).toContain('purge-live');
    expect(ids).not.toContain('purge-old');
    const devices = (await db.select({ h: s.rememberMeDevices.tokenHash }).from(s.rememberMeDevices)).map((r) => r.h);
    expect(devices).toContain('purge-live-device');
    expect(devices).not.toContain('purge-old-device');
    const refresh = (await db.select({ h: s.refreshTokens.tokenHash }).from(s.refreshTokens)).map((r) => r.h);
    expect(refresh).toContain('purge-live-refresh');
    expect(refresh).not.toContain('purge-old-refresh');
    // A second run finds nothing more of those.
    expect((await purgeExpired(db, new Date())).revokedTokens).toBe(0);
  });
});

describe('SMTP delivery (SMTP_URL)', () => {
  it('sends the MFA code through a real SMTP server and marks the outbox row sent; a dead server marks it failed', async () => {
    const received: { to: string; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let data = '';
        stream.on('data', (chunk) => {
          data += chunk;
        });
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), data });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    const smtp = await buildTestApp({
      database: t.database,
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Portal <portal@example.test>' },
      mailTransport: 'default',
    });
    try {
      const res = await login(smtp.app, 'dr.patel@demo.hcp');
      expect(res.json().mfaResponse).toBeDefined();
      expect(received).toHaveLength(1);
      expect(received[0]?.to).toBe('dr.patel@demo.hcp');
      expect(received[0]?.data).toMatch(/Your HCP Portal verification code is \d{6}/);
      expect(received[0]?.data).toContain('portal@example.test');
      const [row] = await t.database.db.select().from(s.outbox).orderBy(sql`created_at desc`).limit(1);
      expect(row?.status).toBe('sent');
      expect(row?.sentAt).toBeInstanceOf(Date);
    } finally {
      await smtp.app.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }

    // Nothing listens there any more: the sign-in still answers, the failure is recorded and logged.
    const dead = await buildTestApp({
      database: t.database,
      env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
      mailTransport: 'default',
    });
    try {
      const res = await login(dead.app, 'dr.patel@demo.hcp');
      expect(res.statusCode).toBe(200);
      expect(res.json().mfaResponse).toBeDefined();
      const [row] = await t.database.db.select().from(s.outbox).orderBy(sql`created_at desc`).limit(1);
      expect(row?.status).toBe('failed');
      expect(dead.logs.some((l) => l.msg === 'mail delivery failed')).toBe(true);
    } finally {
      await dead.app.close();
    }
  });
});
