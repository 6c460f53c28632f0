/** POST users/{id}/preferences: the signed-in user's own settings, validated, audited, only for oneself. */
import { type Tokens, userDetailsSchema } from '@hcp/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { errorPaths } from './support/errors.ts';

let t: TestApp;
let staff: Tokens;
beforeAll(async () => {
  t = await buildTestApp();
  staff = await signIn(t.app, 'staff.lee@demo.hcp');
});
afterAll(() => t.close());

const prefs = {
  userName: 'Jamie R. Lee',
  phoneNumber: '(614) 555-0199',
  skipPriorAuthDismissNotice: true,
  skipErxConfirmation: false,
};
const post = (who: Tokens, userId: string, payload: unknown, requestId?: string) =>
  injectAs(t.app, who, {
    method: 'POST',
    url: `/api/mdo/v1/users/${userId}/preferences`,
    payload: payload as Record<string, unknown>,
    ...(requestId ? { headers: { 'x-request-id': requestId } } : {}),
  });

describe('user preferences', () => {
  it('saves the whole set and answers the updated user details', async () => {
    const res = await post(staff, staff.userID, prefs, 'prefsSave000000000000001');
    expect(res.statusCode, res.body).toBe(200);
    const details = userDetailsSchema.parse(res.json());
    expect(details).toMatchObject({
      userName: 'Jamie R. Lee',
      phoneNumber: '(614) 555-0199',
      mdOfficeUserPrefs: { skipPriorAuthDismissNotice: true, skipErxConfirmation: false },
    });
    const again = await injectAs(t.app, staff, { method: 'GET', url: `/api/mdo/v1/users/${staff.userID}/mdo-user-details` });
    expect(again.json()).toMatchObject({ userName: 'Jamie R. Lee', phoneNumber: '(614) 555-0199' });
    // A blank phone clears it.
    const cleared = await post(staff, staff.userID, { ...prefs, phoneNumber: '' });
    expect(cleared.json().phoneNumber).toBeNull();
    const [audits] = await t.database.db
      .select({ n: count() })
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'user.preferences.update'), eq(s.auditLog.entityId, staff.userID)));
    expect(audits?.n).toBe(2);
  });

  it('saves the check before faxed decisions when sent, and leaves it as it is when left out', async () => {
    const on = await post(staff, staff.userID, { ...prefs, skipSendConfirmation: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().mdOfficeUserPrefs.skipSendConfirmation).toBe(true);
    const untouched = await post(staff, staff.userID, prefs);
    expect(untouched.json().mdOfficeUserPrefs.skipSendConfirmation).toBe(true);
    const off = await post(staff, staff.userID, { ...prefs, skipSendConfirmation: false });
    expect(off.json().mdOfficeUserPrefs.skipSendConfirmation).toBe(false);
  });

  it('takes a name with a hyphen and an apostrophe, and still refuses other signs', async () => {
    const named = await post(staff, staff.userID, { ...prefs, userName: "Mary-Jane O'Neil" });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().userName).toBe("Mary-Jane O'Neil");
    const refused = await post(staff, staff.userID, { ...prefs, userName: 'Mary <b>Neil</b>' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toEqual([
      { path: 'body.userName', message: 'Enter a first and last name (letters, hyphens and apostrophes only).' },
    ]);
    await post(staff, staff.userID, prefs);
  });

  it('refuses bad input field by field and changes nothing', async () => {
    const before = await injectAs(t.app, staff, { method: 'GET', url: `/api/mdo/v1/users/${staff.userID}/mdo-user-details` });
    const res = await post(staff, staff.userID, { userName: 'J', phoneNumber: '555', skipPriorAuthDismissNotice: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(errorPaths(res)).toEqual([
      'body.phoneNumber',
      'body.skipErxConfirmation',
      'body.skipPriorAuthDismissNotice',
      'body.userName',
    ]);
    const after = await injectAs(t.app, staff, { method: 'GET', url: `/api/mdo/v1/users/${staff.userID}/mdo-user-details` });
    expect(after.json()).toEqual(before.json());
  });

  it("answers 404 for another user's preferences and 401 without a session", async () => {
    const admin = await signIn(t.app, 'admin@demo.hcp');
    expect((await post(staff, admin.userID, prefs)).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/mdo/v1/users/${staff.userID}/preferences`,
      payload: prefs,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('user details: brand and account manager', () => {
  it("names the user's brand, and a VAM practice's account manager", async () => {
    const details = await injectAs(t.app, staff, { method: 'GET', url: `/api/mdo/v1/users/${staff.userID}/mdo-user-details` });
    expect(details.json()).toMatchObject({ brand: 'main', isVAMPracticeUser: false, accountManager: null });
    const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, staff.userID));
    await t.database.db
      .update(s.mdOffices)
      .set({
        isVam: true,
        accountManagerName: 'Jordan Rivera',
        accountManagerPhone: '(614) 555-0150',
        accountManagerEmail: 'jr@x.test',
      })
      .where(eq(s.mdOffices.id, user?.mdOfficeId as string));
    const vam = await injectAs(t.app, staff, { method: 'GET', url: `/api/mdo/v1/users/${staff.userID}/mdo-user-details` });
    expect(vam.json()).toMatchObject({
      isVAMPracticeUser: true,
      accountManager: { name: 'Jordan Rivera', phone: '(614) 555-0150', email: 'jr@x.test' },
    });
    const kim = await signIn(t.app, 'dr.kim@harrow.demo.hcp', 'harrow.localhost');
    const harrow = await injectAs(t.app, kim, { method: 'GET', url: `/api/mdo/v1/users/${kim.userID}/mdo-user-details` });
    expect(harrow.json().brand).toBe('harrow');
  });
});
