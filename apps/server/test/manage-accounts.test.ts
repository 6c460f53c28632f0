/** Manage Accounts: admins list, invite, change role, toggle two-step verification, disable and re-enable. */
import { accountSchema, accountSearchResponseSchema, type Tokens } from '@hcp/contract';
import { and, count, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, login, signIn } from './support/auth.ts';
import { errorPaths } from './support/errors.ts';

let t: TestApp;
let admin: Tokens;
let sales: Tokens;
let staff: Tokens;
let morganOfficeId: string;
beforeAll(async () => {
  t = await buildTestApp();
  [admin, sales, staff] = await Promise.all([
    signIn(t.app, 'admin@demo.hcp'),
    signIn(t.app, 'sales@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
  ]);
  const [office] = await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.name, 'Morgan Family Medicine'));
  morganOfficeId = office?.id as string;
});
afterAll(() => t.close());

let n = 0;
const as = (who: Tokens, options: InjectOptions) =>
  injectAs(t.app, who, { ...options, headers: { 'x-request-id': `acct${String(++n).padStart(20, '0')}` } });
const invite = (payload: Record<string, unknown>, who = admin) =>
  as(who, { method: 'POST', url: '/api/mdo/v1/accounts', payload });

describe('manage accounts', () => {
  it('is for admins only: sales, office users and strangers get 404 / 401', async () => {
    for (const who of [sales, staff]) {
      expect((await as(who, { method: 'GET', url: '/api/mdo/v1/accounts' })).statusCode).toBe(404);
      expect(
        (await invite({ userName: 'Some One', email: 'x@y.test', role: 'provider.sales', mdOfficeId: '' }, who)).statusCode,
      ).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/mdo/v1/accounts' })).statusCode).toBe(401);
  });

  it('lists the tenant’s accounts 25 a page, searchable by name, email and practice', async () => {
    const all = accountSearchResponseSchema.parse((await as(admin, { method: 'GET', url: '/api/mdo/v1/accounts' })).json());
    expect(all.records.map((a) => a.email)).toEqual(expect.arrayContaining(['admin@demo.hcp', 'staff.lee@demo.hcp']));
    expect(all.records.map((a) => a.email)).not.toContain('dr.kim@harrow.demo.hcp');
    const byPractice = accountSearchResponseSchema.parse(
      (await as(admin, { method: 'GET', url: '/api/mdo/v1/accounts?searchText=morgan%20family' })).json(),
    );
    expect(byPractice.records.map((a) => a.email).sort()).toEqual(['dr.morgan@demo.hcp', 'staff.lee@demo.hcp']);
    expect(byPractice.records[0]).toMatchObject({ practiceName: 'Morgan Family Medicine', disabled: false, invited: false });
  });

  it('invites an office user: validated, unique email, mailed a link to choose a password, then signs in', async () => {
    const bad = await invite({ userName: 'X', email: 'nope', role: 'mdo.user', mdOfficeId: '' });
    expect(bad.statusCode).toBe(400);
    expect(errorPaths(bad)).toEqual(['body.email', 'body.mdOfficeId', 'body.userName']);
    const taken = await invite({
      userName: 'Jamie Lee',
      email: 'STAFF.LEE@demo.hcp',
      role: 'mdo.user',
      mdOfficeId: morganOfficeId,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.details[0].path).toBe('body.email');

    const res = await invite({
      userName: 'Robin Front',
      email: 'robin.front@demo.hcp',
      role: 'mdo.user',
      mdOfficeId: morganOfficeId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = accountSchema.parse(res.json());
    expect(created).toMatchObject({ role: 'mdo.user', practiceName: 'Morgan Family Medicine', invited: true, disabled: false });
    const mail = t.mail.filter((m) => m.to === 'robin.front@demo.hcp' && m.kind === 'invitation').at(-1);
    const token = /\/password-reset\/([\w-]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/mdo/v1/update-password',
      payload: { token, password: 'a-new-long-password-1' },
    });
    expect(set.statusCode, set.body).toBeLessThan(300);
    expect((await login(t.app, 'robin.front@demo.hcp', 'a-new-long-password-1')).json().jwtToken).toBeDefined();
    const [audits] = await t.database.db
      .select({ n: count() })
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'account.invite'), eq(s.auditLog.entityId, created.id)));
    expect(audits?.n).toBe(1);
  });

  it('changes role and two-step verification, disables (ending sessions at once) and re-enables', async () => {
    const created = accountSchema.parse(
      (await invite({ userName: 'Sam Seller', email: 'sam.seller@demo.hcp', role: 'provider.sales', mdOfficeId: '' })).json(),
    );
    const url = `/api/mdo/v1/accounts/${created.id}`;
    const promoted = await as(admin, {
      method: 'PUT',
      url,
      payload: { role: 'provider.admin', mfaEnabled: true, disabled: false },
    });
    expect(promoted.json()).toMatchObject({ role: 'provider.admin', mfaEnabled: true });
    const [row] = await t.database.db.select().from(s.users).where(eq(s.users.id, created.id));
    expect(row?.userType).toBe('provider_admin');
    // Without a practice the account cannot become an office user.
    const noOffice = await as(admin, { method: 'PUT', url, payload: { role: 'mdo.user', mfaEnabled: true, disabled: false } });
    expect(noOffice.statusCode).toBe(400);

    // Disabling staff.lee ends her session at once; re-enabling lets her sign in again.
    const [lee] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'staff.lee@demo.hcp'));
    const leeUrl = `/api/mdo/v1/accounts/${lee?.id}`;
    const session = await signIn(t.app, 'staff.lee@demo.hcp');
    const disabled = await as(admin, {
      method: 'PUT',
      url: leeUrl,
      payload: { role: 'mdo.user', mfaEnabled: false, disabled: true },
    });
    expect(disabled.json().disabled).toBe(true);
    const after = await injectAs(t.app, session, { method: 'GET', url: `/api/mdo/v1/users/${session.userID}/mdo-user-details` });
    expect(after.statusCode).toBe(401);
    expect((await login(t.app, 'staff.lee@demo.hcp')).json().jwtToken).toBeUndefined();
    const enabled = await as(admin, {
      method: 'PUT',
      url: leeUrl,
      payload: { role: 'mdo.user', mfaEnabled: false, disabled: false },
    });
    expect(enabled.json().disabled).toBe(false);
    expect((await login(t.app, 'staff.lee@demo.hcp')).json().jwtToken).toBeDefined();
  });

  it('refuses to disable or demote oneself, and resets two-step verification of another account', async () => {
    const self = await as(admin, {
      method: 'PUT',
      url: `/api/mdo/v1/accounts/${admin.userID}`,
      payload: { role: 'provider.admin', mfaEnabled: false, disabled: true },
    });
    expect(self.statusCode).toBe(409);
    const [patel] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'dr.patel@demo.hcp'));
    await t.database.db.insert(s.rememberMeDevices).values({
      userId: patel?.id as string,
      tokenHash: 'reset-two-step-test',
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const reset = await as(admin, { method: 'POST', url: `/api/mdo/v1/accounts/${patel?.id}/reset-mfa` });
    expect(reset.statusCode, reset.body).toBe(200);
    const devices = await t.database.db
      .select()
      .from(s.rememberMeDevices)
      .where(eq(s.rememberMeDevices.userId, patel?.id as string));
    expect(devices).toEqual([]);
    const [audit] = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'account.two-step.reset'), eq(s.auditLog.entityId, patel?.id as string)));
    expect(audit?.details).toMatchObject({ devicesForgotten: 1 });
    // Another tenant's account is not there.
    const [kim] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'dr.kim@harrow.demo.hcp'));
    expect((await as(admin, { method: 'POST', url: `/api/mdo/v1/accounts/${kim?.id}/reset-mfa` })).statusCode).toBe(404);
  });
});
