/**
 * Issue 48: an authenticator app (TOTP, RFC 6238) and one-time recovery codes, end to end through the app: set-up,
 * confirmation, sign-in by the app (each code once), by a recovery code (each once, mailed), by a mailed code on
 * request, removal with the password; every change audited and mailed; nobody else's factors reachable. The codes are
 * computed here from the secret the set-up answered, on the app's injected clock: nothing is mocked.
 */
import { DASHBOARD, normalizeRecoveryCode, RECOVERY_CODES, type Tokens } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { DEMO_PASSWORD } from '../src/seed/index.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, login, signIn } from './support/auth.ts';

let t: TestApp;
let at = Date.UTC(2026, 11, 3, 14, 0, 10);
const tick = (seconds: number) => {
  at += seconds * 1000;
};
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(at) });
});
afterAll(() => t.close());

const EMAIL = 'dr.morgan@demo.hcp';
const base = (userId: string) => `/api/mdo/v1/users/${userId}/sign-in-factors`;
const codeAt = (secret: string, ms = at) =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: ms,
  });
const verify = (authToken: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/auth-service/mfa', payload: { authToken, dashboard: DASHBOARD, ...payload } });
const auditActions = async (userId: string) =>
  (await t.database.db.select({ action: s.auditLog.action }).from(s.auditLog).where(eq(s.auditLog.entityId, userId))).map(
    (r) => r.action,
  );

let tokens: Tokens;
let secret = '';
let recovery: string[] = [];

describe('setting up an authenticator app', () => {
  it('answers a secret as a QR code and as text; until a code from it is typed it is not a factor', async () => {
    tokens = await signIn(t.app, EMAIL);
    const res = await injectAs(t.app, tokens, { method: 'POST', url: `${base(tokens.userID)}/authenticator-app` });
    expect(res.statusCode).toBe(200);
    const setup = res.json();
    secret = setup.secret;
    expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\/HCP%20Portal:dr\.morgan%40demo\.hcp\?issuer=HCP%20Portal&secret=[A-Z2-7]+/);
    expect(setup.qrSvg).toMatch(/^<svg /);
    // Kept sealed: the database row does not hold the secret.
    const [row] = await t.database.db.select().from(s.authenticatorApps).where(eq(s.authenticatorApps.userId, tokens.userID));
    expect(row?.secretSealed).not.toContain(secret.replace(/\s/g, ''));
    expect(row?.confirmedAt).toBeNull();
    const factors = await injectAs(t.app, tokens, { method: 'GET', url: base(tokens.userID) });
    expect(factors.json()).toEqual({ authenticatorApp: null, passkeys: [], recoveryCodesLeft: 0 });
    // Signing in still needs no second step (this account's mailed codes are off).
    expect((await login(t.app, EMAIL)).json().jwtToken).toBeDefined();
  });

  it('refuses a wrong code on its field, then takes the right one and answers ten recovery codes once', async () => {
    const mailsBefore = t.mail.length;
    const wrong = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/authenticator-app/confirm`,
      payload: { code: codeAt(secret, at - 5 * 60_000) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details).toEqual([
      { path: 'body.code', message: 'That code did not match. Check the time on your phone and enter the newest code.' },
    ]);
    const ok = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/authenticator-app/confirm`,
      // As an app shows it: grouped by three.
      payload: { code: codeAt(secret).replace(/^(\d{3})/, '$1 ') },
    });
    expect(ok.statusCode).toBe(200);
    recovery = ok.json().recoveryCodes;
    expect(recovery).toHaveLength(RECOVERY_CODES.count);
    expect(new Set(recovery).size).toBe(RECOVERY_CODES.count);
    for (const code of recovery) expect(normalizeRecoveryCode(code)).not.toBeNull();
    expect(t.mail.slice(mailsBefore)).toEqual([
      expect.objectContaining({ to: EMAIL, subject: 'An authenticator app was added to your HCP Portal account' }),
    ]);
    // No code in the mail.
    expect(t.mail.at(-1)?.text).not.toMatch(/[A-Z0-9]{5}-[A-Z0-9]{5}/);
    const factors = await injectAs(t.app, tokens, { method: 'GET', url: base(tokens.userID) });
    expect(factors.json()).toEqual({ authenticatorApp: { addedAt: expect.any(String) }, passkeys: [], recoveryCodesLeft: 10 });
    const again = await injectAs(t.app, tokens, { method: 'POST', url: `${base(tokens.userID)}/authenticator-app` });
    expect(again.statusCode).toBe(409);
    expect(await auditActions(tokens.userID)).toEqual(
      expect.arrayContaining(['auth.factor.totp.setup-started', 'auth.factor.totp.setup-failed', 'auth.factor.totp.added']),
    );
  });
});

describe('signing in with the app', () => {
  it('asks for the app, mails nothing, and takes each code once', async () => {
    const mailsBefore = t.mail.length;
    const first = (await login(t.app, EMAIL)).json().mfaResponse;
    expect(first.methods).toEqual(['totp', 'recovery', 'email']);
    expect(t.mail.length).toBe(mailsBefore);
    // The code typed to confirm the set-up was used: it does not sign in.
    const replay = await verify(first.userToken, { method: 'totp', mfaCode: codeAt(secret) });
    expect(replay.statusCode).toBe(404);
    expect(replay.json().error.message).toBe('Incorrect verification code.');
    tick(30);
    const code = codeAt(secret);
    const ok = await verify(first.userToken, { method: 'totp', mfaCode: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().accessToken).toEqual(expect.any(String));
    // Seen over a shoulder: the same code in a new sign-in is refused.
    const second = (await login(t.app, EMAIL)).json().mfaResponse;
    expect((await verify(second.userToken, { method: 'totp', mfaCode: code })).statusCode).toBe(404);
    // A phone a step behind still signs in.
    tick(60);
    expect((await verify(second.userToken, { method: 'totp', mfaCode: codeAt(secret, at - 30_000) })).statusCode).toBe(200);
  });

  it('takes a recovery code once, however it is typed, and mails its use', async () => {
    const challenge = (await login(t.app, EMAIL)).json().mfaResponse;
    const code = recovery[0] as string;
    const typed = ` ${code.toLowerCase().replace('-', ' ')} `;
    const mailsBefore = t.mail.length;
    const ok = await verify(challenge.userToken, { method: 'recovery', recoveryCode: typed });
    expect(ok.statusCode).toBe(200);
    expect(t.mail.slice(mailsBefore)).toEqual([
      expect.objectContaining({
        to: EMAIL,
        subject: 'A recovery code was used to sign in to your HCP Portal account',
        text: expect.stringContaining('9 of 10 are left'),
      }),
    ]);
    const next = (await login(t.app, EMAIL)).json().mfaResponse;
    expect((await verify(next.userToken, { method: 'recovery', recoveryCode: code })).statusCode).toBe(404);
    const missing = await verify(next.userToken, { method: 'recovery' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].path).toBe('body.recoveryCode');
  });

  it('mails a code at once when asked instead of the app, and that code signs in', async () => {
    const challenge = (await login(t.app, EMAIL)).json().mfaResponse;
    // No code was mailed: a mailed-code attempt cannot match anything yet.
    expect((await verify(challenge.userToken, { mfaCode: '123456' })).statusCode).toBe(404);
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth-service/mfa/resend',
      payload: { authToken: challenge.userToken, dashboard: DASHBOARD },
    });
    expect(res.statusCode).toBe(200);
    const mailed = /\b(\d{6})\b/.exec(t.mail.at(-1)?.text ?? '')?.[1] as string;
    expect(t.mail.at(-1)).toMatchObject({ to: EMAIL, kind: 'mfa-code' });
    expect((await verify(challenge.userToken, { method: 'email', mfaCode: mailed })).statusCode).toBe(200);
  });
});

describe('only the user’s own factors, and removing them', () => {
  it('answers 404 for another user’s factors on every route, and 401 without a session', async () => {
    const other = await signIn(t.app, 'staff.lee@demo.hcp');
    for (const [method, path, payload] of [
      ['GET', '', undefined],
      ['POST', '/authenticator-app', undefined],
      ['POST', '/authenticator-app/confirm', { code: '123456' }],
      ['POST', '/authenticator-app/remove', { currentPassword: 'x' }],
      ['POST', '/recovery-codes', { currentPassword: 'x' }],
      ['POST', '/passkeys/options', undefined],
      ['POST', '/passkeys/00000000-0000-4000-8000-000000000000/rename', { name: 'x' }],
      ['POST', '/passkeys/00000000-0000-4000-8000-000000000000/remove', { currentPassword: 'x' }],
    ] as const) {
      const url = `${base(tokens.userID)}${path}`;
      const res = await injectAs(t.app, other, { method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect((await t.app.inject({ method, url, ...(payload ? { payload } : {}) })).statusCode).toBe(401);
    }
  });

  it('makes new recovery codes with the password (the old ones stop working), and removes the app with it', async () => {
    const wrong = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/recovery-codes`,
      payload: { currentPassword: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details).toEqual([
      { path: 'body.currentPassword', message: 'The current password is not correct.' },
    ]);
    const renewed = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/recovery-codes`,
      payload: { currentPassword: DEMO_PASSWORD },
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const challenge = (await login(t.app, EMAIL)).json().mfaResponse;
    expect((await verify(challenge.userToken, { method: 'recovery', recoveryCode: recovery[1] })).statusCode).toBe(404);

    const mailsBefore = t.mail.length;
    const removed = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/authenticator-app/remove`,
      payload: { currentPassword: DEMO_PASSWORD },
    });
    expect(removed.statusCode).toBe(200);
    expect(t.mail.slice(mailsBefore)).toEqual([
      expect.objectContaining({ subject: 'The authenticator app was removed from your HCP Portal account' }),
    ]);
    expect((await injectAs(t.app, tokens, { method: 'GET', url: base(tokens.userID) })).json()).toEqual({
      authenticatorApp: null,
      passkeys: [],
      recoveryCodesLeft: 0,
    });
    expect((await login(t.app, EMAIL)).json().jwtToken).toBeDefined();
    expect(await auditActions(tokens.userID)).toEqual(
      expect.arrayContaining(['auth.factor.recovery.used', 'auth.factor.recovery.renewed', 'auth.factor.totp.removed']),
    );
  });
});

describe('an administrator’s reset of two-step sign-in', () => {
  it('removes the app and its recovery codes (a lost phone), tells the owner by mail, and audits it', async () => {
    const email = 'vam.staff@demo.hcp';
    const owner = await signIn(t.app, email);
    const setup = (await injectAs(t.app, owner, { method: 'POST', url: `${base(owner.userID)}/authenticator-app` })).json();
    const confirmed = await injectAs(t.app, owner, {
      method: 'POST',
      url: `${base(owner.userID)}/authenticator-app/confirm`,
      payload: { code: codeAt(setup.secret) },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await login(t.app, email)).json().mfaResponse.methods).toEqual(['totp', 'recovery', 'email']);

    const admin = await signIn(t.app, 'admin@demo.hcp');
    const mailsBefore = t.mail.length;
    const reset = await injectAs(t.app, admin, { method: 'POST', url: `/api/mdo/v1/accounts/${owner.userID}/reset-mfa` });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(t.mail.slice(mailsBefore)).toEqual([
      expect.objectContaining({ to: email, subject: 'Two-step sign-in was reset on your HCP Portal account' }),
    ]);
    expect((await injectAs(t.app, owner, { method: 'GET', url: base(owner.userID) })).json()).toEqual({
      authenticatorApp: null,
      passkeys: [],
      recoveryCodesLeft: 0,
    });
    const [audit] = await t.database.db
      .select({ details: s.auditLog.details })
      .from(s.auditLog)
      .where(eq(s.auditLog.action, 'account.two-step.reset'));
    expect(audit?.details).toMatchObject({ authenticatorRemoved: true });
    expect((await login(t.app, email)).json().jwtToken).toBeDefined();
  });
});

describe('passkeys, as far as the server alone can go (the ceremonies run in the browser: sign-in-factors.spec.ts)', () => {
  it('offers options bound to the request’s host, keeping a key it has out; refuses a forged answer and a stranger’s key', async () => {
    const res = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/passkeys/options`,
      headers: { host: 'portal.example.test' },
    });
    expect(res.statusCode).toBe(200);
    const { options } = res.json();
    expect(options).toMatchObject({
      rp: { name: 'HCP Portal', id: 'portal.example.test' },
      user: { name: EMAIL },
      attestation: 'direct',
      authenticatorSelection: { userVerification: 'required' },
      excludeCredentials: [],
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const forged = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: Buffer.from('{"type":"webauthn.create"}').toString('base64url'), attestationObject: 'AAAA' },
    };
    const refused = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/passkeys`,
      headers: { host: 'portal.example.test' },
      payload: { name: 'Forged', credential: forged },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('The passkey could not be checked. Try again, or use another way to sign in.');
    expect((await injectAs(t.app, tokens, { method: 'GET', url: base(tokens.userID) })).json().passkeys).toEqual([]);
    const unnamed = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base(tokens.userID)}/passkeys`,
      payload: { name: '   ', credential: forged },
    });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error.details[0]).toMatchObject({ path: 'body.name' });
  });

  it('answers a sign-in’s passkey options only for a live challenge, and a passkey answer of no key of the user signs nothing', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth-service/mfa/passkey-options', payload: { authToken: 'nope' } }))
        .statusCode,
    ).toBe(401);
    const patel = (await login(t.app, 'dr.patel@demo.hcp')).json().mfaResponse;
    const options = await t.app.inject({
      method: 'POST',
      url: '/auth-service/mfa/passkey-options',
      payload: { authToken: patel.userToken },
    });
    expect(options.statusCode).toBe(200);
    expect(options.json().options).toMatchObject({ allowCredentials: [], userVerification: 'required' });
    const answer = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
    };
    const res = await verify(patel.userToken, { method: 'passkey', passkey: answer });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Incorrect verification code.');
  });

  it('signs in by a passkey alone only with a key it knows: options name no user, a forged answer is 401', async () => {
    const options = await t.app.inject({
      method: 'POST',
      url: '/auth-service/passkey-login/options',
      headers: { host: 'portal.example.test' },
    });
    expect(options.statusCode).toBe(200);
    expect(options.json().options).toMatchObject({ rpId: 'portal.example.test', userVerification: 'required' });
    expect(options.json().options.allowCredentials ?? []).toEqual([]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth-service/passkey-login',
      payload: {
        passkey: {
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          clientExtensionResults: {},
          response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
        },
      },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('The passkey could not be checked. Try again, or use another way to sign in.');
  });
});
