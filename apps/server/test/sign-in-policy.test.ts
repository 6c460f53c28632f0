/**
 * Issue 48, sign-in policy (decision 0060), through the app on the real database: the provider's admin and a
 * practice's prescribers require a strong factor; a user who must and has none signs in through a mailed code to a
 * token good only for adding one (every other route 403), adds an app, and the next refresh gives a full token; a
 * session from before the policy is restricted at its next refresh; the last strong factor is not removed while one
 * is required; with mailed codes turned off, a user with a strong factor is offered none. Codes computed here.
 */
import { DASHBOARD, SIGN_IN_POLICY_MESSAGES, type Tokens } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { DEMO_PASSWORD } from '../src/seed/index.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, login, signIn } from './support/auth.ts';

let t: TestApp;
let at = Date.UTC(2026, 11, 3, 16, 0, 5);
const step = () => {
  at += 30_000;
};
let admin: Tokens;
let morgan: Tokens;
let practiceId = '';
const LEE = 'staff.lee@demo.hcp';

const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/auth-service/refresh', payload: { refreshToken, dashboard: DASHBOARD } });
const mailedCode = (to: string) => {
  const mail = [...t.mail].reverse().find((m) => m.to === to && m.kind === 'mfa-code');
  return /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
};
const codeOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at,
  });
const policyUrl = () => `/api/mdo/v1/practices/${practiceId}/sign-in-policy`;

beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(at) });
  [admin, morgan] = await Promise.all([signIn(t.app, 'admin@demo.hcp'), signIn(t.app, 'dr.morgan@demo.hcp')]);
  const [row] = await t.database.db
    .select({ officeId: s.users.mdOfficeId })
    .from(s.users)
    .where(eq(s.users.email, 'dr.morgan@demo.hcp'));
  practiceId = row?.officeId as string;
});
afterAll(() => t.close());

describe('who sets the policy', () => {
  it('the tenant’s by its admin only; a practice’s by its prescribers (staff read it, others do not find it)', async () => {
    expect((await injectAs(t.app, morgan, { method: 'GET', url: '/api/mdo/v1/sign-in-policy' })).statusCode).toBe(404);
    const read = await injectAs(t.app, admin, { method: 'GET', url: '/api/mdo/v1/sign-in-policy' });
    expect(read.json()).toEqual({ strongFactorRequired: false, emailCodesAllowed: true });
    const lee = await signIn(t.app, LEE);
    expect((await injectAs(t.app, lee, { method: 'GET', url: policyUrl() })).json()).toEqual({
      strongFactorRequired: false,
      requiredByProvider: false,
      mayChange: false,
    });
    const staff = await injectAs(t.app, lee, { method: 'PUT', url: policyUrl(), payload: { strongFactorRequired: true } });
    expect(staff.statusCode).toBe(403);
    expect(staff.json().error.message).toBe(SIGN_IN_POLICY_MESSAGES.notPrescriber);
    const patel = await t.database.db
      .select({ officeId: s.users.mdOfficeId })
      .from(s.users)
      .where(eq(s.users.email, 'dr.patel@demo.hcp'));
    const other = await injectAs(t.app, morgan, {
      method: 'PUT',
      url: `/api/mdo/v1/practices/${patel[0]?.officeId}/sign-in-policy`,
      payload: { strongFactorRequired: true },
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('a practice requires a strong factor', () => {
  let lee: Tokens;
  it('an open session is restricted at its next refresh', async () => {
    lee = await signIn(t.app, LEE);
    const set = await injectAs(t.app, morgan, { method: 'PUT', url: policyUrl(), payload: { strongFactorRequired: true } });
    expect(set.json()).toEqual({ strongFactorRequired: true, requiredByProvider: false, mayChange: true });
    const renewed = await refresh(lee.refreshToken);
    expect(renewed.json().enrolmentRequired).toBe(true);
    const restricted = { accessToken: renewed.json().accessToken, userID: lee.userID };
    const list = await injectAs(t.app, restricted, { method: 'GET', url: `/api/mdo/v2/users/${lee.userID}/action-queue` });
    expect(list.statusCode).toBe(403);
    expect(list.json().error.message).toBe(SIGN_IN_POLICY_MESSAGES.enrolFirst);
  });

  it('signing in asks a mailed code first, then gives a token good only for adding a factor; once added, a refresh gives a full one', async () => {
    const first = await login(t.app, LEE);
    const challenge = first.json().mfaResponse;
    expect(challenge).toBeDefined();
    const verified = await t.app.inject({
      method: 'POST',
      url: '/auth-service/mfa',
      payload: { authToken: challenge.userToken, mfaCode: mailedCode(LEE), dashboard: DASHBOARD },
    });
    expect(verified.statusCode).toBe(200);
    const tokens = verified.json() as Tokens;
    expect(tokens.enrolmentRequired).toBe(true);
    // Anything but adding a factor is refused; adding one works.
    expect(
      (await injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v1/users/${lee.userID}/mdo-user-details` })).statusCode,
    ).toBe(403);
    const base = `/api/mdo/v1/users/${lee.userID}/sign-in-factors`;
    expect((await injectAs(t.app, tokens, { method: 'GET', url: base })).statusCode).toBe(200);
    const setup = (await injectAs(t.app, tokens, { method: 'POST', url: `${base}/authenticator-app` })).json();
    // Removing is not what a restricted token is for.
    expect(
      (
        await injectAs(t.app, tokens, {
          method: 'POST',
          url: `${base}/authenticator-app/remove`,
          payload: { currentPassword: DEMO_PASSWORD },
        })
      ).statusCode,
    ).toBe(403);
    step();
    const confirmed = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `${base}/authenticator-app/confirm`,
      payload: { code: codeOf(setup.secret) },
    });
    expect(confirmed.statusCode).toBe(200);
    const full = await refresh(tokens.refreshToken);
    expect(full.json().enrolmentRequired).toBeUndefined();
    const now = { accessToken: full.json().accessToken, userID: lee.userID };
    expect((await injectAs(t.app, now, { method: 'GET', url: `/api/mdo/v2/users/${lee.userID}/action-queue` })).statusCode).toBe(
      200,
    );

    // The last strong factor stays while one is required.
    const remove = await injectAs(t.app, now, {
      method: 'POST',
      url: `${base}/authenticator-app/remove`,
      payload: { currentPassword: DEMO_PASSWORD },
    });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().error.message).toBe(SIGN_IN_POLICY_MESSAGES.lastFactor);
    const [app] = await t.database.db.select().from(s.authenticatorApps).where(eq(s.authenticatorApps.userId, lee.userID));
    expect(app?.confirmedAt).not.toBeNull();
  });

  it('with mailed codes turned off, a user with a strong factor is offered none and cannot ask for one', async () => {
    const set = await injectAs(t.app, admin, {
      method: 'PUT',
      url: '/api/mdo/v1/sign-in-policy',
      payload: { strongFactorRequired: false, emailCodesAllowed: false },
    });
    expect(set.json()).toEqual({ strongFactorRequired: false, emailCodesAllowed: false });
    const challenge = (await login(t.app, LEE)).json().mfaResponse;
    expect(challenge.methods).toEqual(['totp', 'recovery']);
    const resend = await t.app.inject({
      method: 'POST',
      url: '/auth-service/mfa/resend',
      payload: { authToken: challenge.userToken, dashboard: DASHBOARD },
    });
    expect(resend.statusCode).toBe(403);
    expect(resend.json().error.message).toBe(SIGN_IN_POLICY_MESSAGES.emailCodesOff);
    const audit = await t.database.db.select().from(s.auditLog).where(eq(s.auditLog.action, 'sign-in-policy.changed'));
    expect(audit.map((a) => a.entityType).sort()).toEqual(['practice', 'tenant']);
  });
});
