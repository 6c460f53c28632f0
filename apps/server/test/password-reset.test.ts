import { DASHBOARD, PASSWORD_RESET_MESSAGES } from '@hcp/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, login, signIn } from './support/auth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const requestReset = (email: string) =>
  t.app.inject({ method: 'POST', url: '/auth/user/reset-password', payload: { email, source: 'MD' } });
const verifyToken = (token: string) =>
  t.app.inject({ method: 'POST', url: '/auth/mdo/verify-password-token', payload: { token } });
const resetWith = (token: string, password: string) =>
  t.app.inject({ method: 'PUT', url: '/api/mdo/v1/update-password', payload: { token, password } });
const tokenFromLastMail = (to: string) => {
  const mail = t.mail.filter((m) => m.to === to && m.kind === 'password-reset').at(-1);
  return /\/password-reset\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] as string;
};

describe('password reset by e-mail', () => {
  it('answers the same for unknown and known e-mails, and mails a link only to the known one', async () => {
    const before = t.mail.length;
    const unknown = await requestReset('nobody@nowhere.example');
    const known = await requestReset('staff.lee@demo.hcp');
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(t.mail.length).toBe(before + 1);
    expect(t.mail.at(-1)?.text).toMatch(/http:\/\/localhost(:\d+)?\/password-reset\/[A-Za-z0-9_-]{40,}/);
  });

  it('checks the token, sets the new password once, and ends every session', async () => {
    const session = await signIn(t.app, 'staff.lee@demo.hcp');
    await requestReset('staff.lee@demo.hcp');
    const token = tokenFromLastMail('staff.lee@demo.hcp');
    expect((await verifyToken(token)).statusCode).toBe(200);
    const weak = await resetWith(token, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.details[0].path).toBe('body.password');
    expect((await resetWith(token, 'a-brand-new-password-2026')).statusCode).toBe(200);

    expect((await login(t.app, 'staff.lee@demo.hcp')).statusCode).toBe(401);
    expect((await login(t.app, 'staff.lee@demo.hcp', 'a-brand-new-password-2026')).statusCode).toBe(200);
    expect((await injectAs(t.app, session, { method: 'GET', url: '/api/mdo/v1/feature-flags' })).statusCode).toBe(401);

    const reused = await resetWith(token, 'another-new-password-2026');
    expect(reused.statusCode).toBe(410);
    expect(reused.json().error.message).toBe(PASSWORD_RESET_MESSAGES.expired);
    expect((await verifyToken(token)).statusCode).toBe(410);
  });

  it('refuses an expired or unknown token with 410', async () => {
    await requestReset('admin@demo.hcp');
    const token = tokenFromLastMail('admin@demo.hcp');
    await t.database.db
      .update(s.passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`true`);
    expect((await verifyToken(token)).statusCode).toBe(410);
    expect((await resetWith(token, 'a-brand-new-password-2026')).statusCode).toBe(410);
    expect((await verifyToken('made-up')).statusCode).toBe(410);
  });

  it('never skips MFA: after a reset the MFA user is still asked for a code', async () => {
    await requestReset('dr.patel@demo.hcp');
    await resetWith(tokenFromLastMail('dr.patel@demo.hcp'), 'patel-new-password-2026');
    const res = await login(t.app, 'dr.patel@demo.hcp', 'patel-new-password-2026');
    expect(res.json().mfaResponse).toBeDefined();
  });

  it('clears a lockout', async () => {
    for (let i = 0; i < 5; i += 1) await login(t.app, 'sales@demo.hcp', 'wrong-password');
    expect((await login(t.app, 'sales@demo.hcp')).statusCode).toBe(429);
    await requestReset('sales@demo.hcp');
    await resetWith(tokenFromLastMail('sales@demo.hcp'), 'sales-new-password-2026');
    expect((await login(t.app, 'sales@demo.hcp', 'sales-new-password-2026')).statusCode).toBe(200);
  });
});

describe('signed-in password change', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const here = await signIn(t.app, 'dr.morgan@demo.hcp');
    const elsewhere = await signIn(t.app, 'dr.morgan@demo.hcp');
    const url = `/api/mdo/v1/users/${here.userID}/update-password`;
    const wrong = await injectAs(t.app, here, {
      method: 'POST',
      url,
      payload: { currentPassword: 'nope', newPassword: 'morgan-new-password-2026' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details).toEqual([
      { path: 'body.currentPassword', message: PASSWORD_RESET_MESSAGES.currentIncorrect },
    ]);

    const ok = await injectAs(t.app, here, {
      method: 'POST',
      url,
      payload: { currentPassword: 'demo-password-2026', newPassword: 'morgan-new-password-2026' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await injectAs(t.app, here, { method: 'GET', url: '/api/mdo/v1/feature-flags' })).statusCode).toBe(200);
    expect((await injectAs(t.app, elsewhere, { method: 'GET', url: '/api/mdo/v1/feature-flags' })).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth-service/login',
      payload: { email: 'dr.morgan@demo.hcp', password: 'morgan-new-password-2026', dashboard: DASHBOARD },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(s.auditLog).where(eq(s.auditLog.action, 'auth.password.changed'));
    expect(row?.actorUserId).toBe(here.userID);
  });

  it("answers 404 for another user's id", async () => {
    const me = await signIn(t.app, 'admin@demo.hcp');
    const res = await injectAs(t.app, me, {
      method: 'POST',
      url: '/api/mdo/v1/users/00000000-0000-0000-0000-000000000000/update-password',
      payload: { currentPassword: 'demo-password-2026', newPassword: 'whatever-password-2026' },
    });
    expect(res.statusCode).toBe(404);
  });
});
