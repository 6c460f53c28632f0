/**
 * Nobody grants themselves access (issue 42; decision 0048). Every kind of user sends every route that takes a body
 * (the routes of the route table, owners included) a valid call carrying each access-granting field set to what
 * would widen their own reach: their own id as a practice's sales representative, the admin role, another
 * practice, their own HCP record, their tenant. Afterwards each user's reach is read back — role, account state,
 * practices, patients, memberships, the practices they serve — and must be what it was.
 *
 * The support-access window is the one designed way to widen a provider user's reach (a reason, a time limit,
 * audited, read-only): its route is left to support-access.test.ts. A practice created in the run is new and empty,
 * so reach is compared over the practices that existed before.
 *
 * Prints "self-grant: N attempts ... 0 users' reach changed".
 */
import { isDeepStrictEqual } from 'node:util';
import { ACCESS_GRANTING_FIELDS, type AccessGrantingField, type Tokens } from '@hcp/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { patientScopeSql, practiceScopeSql } from '../src/lib/office-scope.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { type Fixture, HOME, ROWS, setUpRouteTable, type Target, WHO, type Who } from './support/route-table.ts';

let t: TestApp;
let tokens: Record<Who, Tokens>;
let fixture: Fixture;
let existing: string[];
const db = () => t.database.db;

beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  ({ tokens, fixture } = await setUpRouteTable(t));
  existing = (await db().select({ id: s.mdOffices.id }).from(s.mdOffices)).map((r) => r.id);
  // Dr. Patel's practice has no representative: for the sales user it is a practice they do not serve.
  await db().update(s.mdOffices).set({ salesUserId: null }).where(eq(s.mdOffices.id, fixture.ids.other.officeId));
}, 120_000);
afterAll(() => t.close());

/** Everything that decides what a user reaches, over the practices that existed before the run. */
async function reachOf(userId: string) {
  const rows = (await db().execute(sql`select u.role, u.user_type, u.disabled_at is null as enabled, u.tenant_id,
      u.md_office_id, u.md_staff_id, (select role from md_staff where id = u.md_staff_id) as clinical_role,
      array(select id::text from md_offices where id in (${practiceScopeSql(userId)}) order by 1) as practices,
      array(select id::text from md_offices where id in (${patientScopeSql(userId)}) order by 1) as patients_of,
      array(select md_office_id::text from office_members where md_staff_id = u.md_staff_id order by 1) as memberships,
      array(select id::text from md_offices where sales_user_id = u.id order by 1) as serves
    from users u where u.id = ${userId}`)) as unknown as { rows: Record<string, unknown>[] };
  const row = rows.rows[0] as Record<string, unknown>;
  const known = (ids: unknown) => (ids as string[]).filter((id) => existing.includes(id));
  return { ...row, practices: known(row.practices), serves: known(row.serves) };
}

const accounts = new Map<Who, typeof s.users.$inferSelect | undefined>();
async function grantValue(field: AccessGrantingField, who: Who): Promise<unknown> {
  const me = tokens[who].userID;
  const elsewhere = fixture.ids[HOME[who] === 'own' ? 'other' : 'own'].officeId;
  if (!accounts.has(who)) accounts.set(who, (await db().select().from(s.users).where(eq(s.users.id, me)))[0]);
  const user = accounts.get(who);
  const values: Record<AccessGrantingField, unknown> = {
    salesUserId: me,
    role: 'provider.admin',
    userType: 'provider_admin',
    disabled: false,
    disabledAt: null,
    mdOfficeId: elsewhere,
    mdStaffId: user?.mdStaffId ?? me,
    tenantId: user?.tenantId,
    practiceIds: [elsewhere],
    memberIds: [me],
    permissions: ['*'],
    scopes: ['system/*.*'],
  };
  return values[field];
}

describe('nobody grants themselves access', () => {
  it('every body route, every access-granting field, every kind of user: nobody’s reach changes', async () => {
    const before = Object.fromEntries(await Promise.all(WHO.map(async (w) => [w, await reachOf(tokens[w].userID)])));
    const statuses: Record<number, number> = {};
    let attempts = 0;
    const routes = ROWS.filter((r) => r.body && r.method !== 'GET' && !r.path.endsWith('/support-access'));
    for (const row of routes) {
      for (const who of WHO) {
        // Their own practice, and (for routes that name one) a practice they do not serve.
        const targets: Target[] = row.targeted ? [HOME[who], HOME[who] === 'own' ? 'other' : 'own'] : [HOME[who]];
        for (const target of targets) {
          const ids = fixture.ids[target];
          // An account route names the caller's own account: the self in self-grant.
          const url = row.url(fixture, who, ids).replace(ids.accountId, tokens[who].userID);
          for (const field of ACCESS_GRANTING_FIELDS) {
            await row.prepare?.(ids, db());
            const body = { ...(row.body?.(fixture, who, ids) as Record<string, unknown>), [field]: await grantValue(field, who) };
            const res = await injectAs(t.app, tokens[who], { method: row.method, url, payload: body });
            attempts += 1;
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          }
        }
      }
    }
    const after = Object.fromEntries(await Promise.all(WHO.map(async (w) => [w, await reachOf(tokens[w].userID)])));
    const widened = WHO.filter((w) => !isDeepStrictEqual(before[w], after[w]));
    process.stdout.write(
      `\nself-grant: ${attempts} attempts on ${routes.length} routes by ${WHO.length} kinds of user, answered ${JSON.stringify(statuses)}; ${widened.length} users' reach changed\n`,
    );
    expect(after).toEqual(before);
  }, 300_000);

  it('a sales user taken off a practice cannot name themselves its representative, open a window on it, or read it', async () => {
    const [practice] = await db().select().from(s.mdOffices).where(eq(s.mdOffices.id, fixture.ids.other.officeId));
    const office = practice as typeof s.mdOffices.$inferSelect;
    const fields = {
      name: office.name,
      address1: office.address1 ?? '1 Main St',
      city: office.city ?? 'Columbus',
      state: office.state ?? 'OH',
      zip: office.zip ?? '43215',
      phoneNumber: office.phone ?? '(614) 555-0100',
      isKeyAccount: office.isKeyAccount,
    };
    const put = (who: Tokens, salesUserId: string | null) =>
      injectAs(t.app, who, { method: 'PUT', url: `/api/mdo/v1/md-offices/${office.id}`, payload: { ...fields, salesUserId } });
    // The admin makes the sales user its representative, then takes them off: their sessions end.
    expect((await put(tokens.admin, tokens.sales.userID)).statusCode).toBe(200);
    expect((await put(tokens.admin, null)).statusCode).toBe(200);
    const stale = await injectAs(t.app, tokens.sales, {
      method: 'GET',
      url: `/api/mdo/v1/users/${tokens.sales.userID}/mdo-user-details`,
    });
    expect(stale.statusCode).toBe(401);

    const sales = await signIn(t.app, 'sales@demo.hcp');
    const grant = await put(sales, sales.userID);
    expect(grant.statusCode).toBe(400);
    expect(grant.json().error.details).toEqual([
      { path: 'body.salesUserId', message: "Only an administrator changes a practice's sales representative." },
    ]);
    const window = await injectAs(t.app, sales, {
      method: 'POST',
      url: `/api/mdo/v1/users/${sales.userID}/support-access`,
      payload: { mdOfficeId: office.id, reason: 'Checking the practice’s setup with them.', minutes: 30 },
    });
    expect(window.statusCode).toBe(404);
    const patient = await injectAs(t.app, sales, {
      method: 'GET',
      url: `/api/mdo/v1/users/${sales.userID}/patients/${fixture.ids.other.patientId}`,
    });
    expect(patient.statusCode).toBe(404);
    expect((await reachOf(sales.userID)).serves).not.toContain(office.id);
  });
});
