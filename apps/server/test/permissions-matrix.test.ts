/**
 * Every signed-in API route x every kind of user (issue 9, spec §6, decisions 0006/0010/0015/0017): a user
 * either reaches the route (any answer but 401/403/404) or it does not exist for them (404, never 403).
 * The route list is read from the OpenAPI document, so a new route without a row here fails this test.
 */
import type { Tokens } from '@hcp/contract';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';

const ROLES = ['prescriber', 'staff', 'admin', 'sales', 'harrow', 'vam'] as const;
type Role = (typeof ROLES)[number];
const ALL: Role[] = [...ROLES];
/** Everyone who acts for Morgan Family Medicine: its own users, the provider's admin and its sales representative. */
const MORGAN: Role[] = ['prescriber', 'staff', 'admin', 'sales'];
const MANAGERS: Role[] = ['admin', 'sales'];
const ADMINS: Role[] = ['admin'];
/** Prescribers whose office enabled prescribing (the flag is on in the demo). */
const PRESCRIBERS: Role[] = ['prescriber', 'harrow'];

interface Fixture {
  me: (role: Role) => string;
  officeId: string;
  staffId: string;
  patientId: string;
  mentionId: string;
  rx: { refill: string; altMed: string; chartNotes: string; any: string; ownAppeal: string };
  productId: string;
  userOf: (role: Role) => string;
}

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The OpenAPI path, e.g. /api/mdo/v1/md-offices/{id}. */
  path: string;
  url: (f: Fixture, role: Role) => string;
  body?: (f: Fixture, role: Role) => unknown;
  reach: Role[];
  /** Puts the resource back before each user's call (a reached delete removed it for the next user). */
  prepare?: (f: Fixture) => Promise<unknown>;
}

const v1 = '/api/mdo/v1';
const u = (f: Fixture, r: Role) => `${v1}/users/${f.me(r)}`;
const sender = { senderName: 'Matrix Test' };

const ROWS: Row[] = [
  { method: 'GET', path: `${v1}/users/{userId}/remembered-devices`, url: (f, r) => `${u(f, r)}/remembered-devices`, reach: ALL },
  {
    method: 'DELETE',
    path: `${v1}/users/{userId}/remembered-devices`,
    url: (f, r) => `${u(f, r)}/remembered-devices`,
    reach: ALL,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/update-password`,
    url: (f, r) => `${u(f, r)}/update-password`,
    body: () => ({ currentPassword: 'not-the-password', newPassword: 'another-long-password' }),
    reach: ALL,
  },
  { method: 'GET', path: `${v1}/users/{userId}/mdo-user-details`, url: (f, r) => `${u(f, r)}/mdo-user-details`, reach: ALL },
  { method: 'GET', path: `${v1}/feature-flags`, url: () => `${v1}/feature-flags`, reach: ALL },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/preferences`,
    url: (f, r) => `${u(f, r)}/preferences`,
    body: () => ({ userName: 'Matrix User', phoneNumber: '', skipPriorAuthDismissNotice: false, skipErxConfirmation: true }),
    reach: ALL,
  },
  {
    method: 'GET',
    path: '/api/mdo/v2/users/{userId}/action-needed',
    url: (f, r) => `/api/mdo/v2/users/${f.me(r)}/action-needed?actionType=ACTION_NEEDED_ALL`,
    reach: ALL,
  },
  ...(
    [
      ['refills-authorized/fax', 'refill', { refills: 1, sig: 'Take 1 daily', ...sender }],
      ['refills-authorized/erx', 'refill', { skipErxConfirmation: true }],
      ['refills-denied', 'refill', { reason: 'NEED_OFFICE_VISIT', ...sender }],
      ['refills-postponed', 'refill', { refillPostponedToDate: '2027-01-15', ...sender }],
      ['substitution/alternative-med', 'altMed', { noSubstitute: true, ...sender }],
      ['prior-auth/chart-notes-sent', 'chartNotes', { chartNote: 'Notes attached.', isICD10TriedAndFailed: false }],
    ] as const
  ).map(
    ([action, kind, body]): Row => ({
      method: 'POST',
      path: `${v1}/prescriptions/{id}/${action}`,
      url: (f) => `${v1}/prescriptions/${f.rx[kind]}/${action}`,
      body: () => body,
      reach: MORGAN,
    }),
  ),
  {
    method: 'POST',
    path: `${v1}/prescriptions/all/prior-auth/dismiss`,
    url: () => `${v1}/prescriptions/all/prior-auth/dismiss`,
    body: (f) => ({ prescriptionIds: [f.rx.chartNotes] }),
    reach: MORGAN,
  },
  {
    method: 'POST',
    path: `${v1}/prescriptions/all/prior-auth/md-signature-received`,
    url: () => `${v1}/prescriptions/all/prior-auth/md-signature-received`,
    body: (f) => ({ prescriptionIds: [f.rx.chartNotes] }),
    reach: MORGAN,
  },
  {
    method: 'POST',
    path: `${v1}/patient-numbers/resolve-exceptions`,
    url: () => `${v1}/patient-numbers/resolve-exceptions`,
    body: (f) => ({ patientPhoneNumberUpdates: [{ patientId: f.patientId, phoneNumber: '(614) 555-0123' }] }),
    reach: MORGAN,
  },
  {
    method: 'GET',
    path: `${v1}/prescriptions/{id}/alternative-meds-request-print`,
    url: (f) => `${v1}/prescriptions/${f.rx.altMed}/alternative-meds-request-print`,
    reach: MORGAN,
  },
  { method: 'GET', path: `${v1}/prescriptions/{id}/events`, url: (f) => `${v1}/prescriptions/${f.rx.any}/events`, reach: MORGAN },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/rx-list`,
    url: (f, r) => `${u(f, r)}/rx-list?startdate=2026-11-01&enddate=2026-11-20`,
    reach: ALL,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/patients-search`,
    url: (f, r) => `${u(f, r)}/patients-search?searchText=smith`,
    reach: ALL,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/patients/{patientId}`,
    url: (f, r) => `${u(f, r)}/patients/${f.patientId}`,
    reach: MORGAN,
  },
  {
    method: 'GET',
    path: '/api/mdo/v2/users/{userId}/doctor-list-search',
    url: (f, r) => `/api/mdo/v2/users/${f.me(r)}/doctor-list-search?newComments=true`,
    reach: ALL,
  },
  {
    method: 'GET',
    path: `${v1}/patients/{patientId}/all-rx-comment`,
    url: (f) => `${v1}/patients/${f.patientId}/all-rx-comment`,
    reach: MORGAN,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/rx-comment`,
    url: (f, r) => `${u(f, r)}/rx-comment`,
    body: (f) => ({ patientId: f.patientId, comment: 'Matrix reply.' }),
    reach: MORGAN,
  },
  {
    method: 'PUT',
    path: `${v1}/users/{userId}/office-mentions`,
    url: (f, r) => `${u(f, r)}/office-mentions`,
    body: (f) => ({ mentionIds: [f.mentionId] }),
    reach: MORGAN,
  },
  { method: 'GET', path: `${v1}/md-offices-search`, url: () => `${v1}/md-offices-search`, reach: MANAGERS },
  {
    method: 'POST',
    path: `${v1}/md-offices`,
    url: () => `${v1}/md-offices`,
    body: (_f, r) => ({
      name: `Matrix Practice ${r}`,
      address1: '1 Main St',
      city: 'Columbus',
      state: 'OH',
      zip: '43215',
      phoneNumber: '(614) 555-0100',
      isKeyAccount: false,
    }),
    reach: MANAGERS,
  },
  { method: 'GET', path: `${v1}/md-offices/{id}`, url: (f) => `${v1}/md-offices/${f.officeId}`, reach: MORGAN },
  {
    method: 'PUT',
    path: `${v1}/md-offices/{id}`,
    url: (f) => `${v1}/md-offices/${f.officeId}`,
    body: () => ({
      name: 'Morgan Family Medicine',
      address1: '1 Main St',
      city: 'Columbus',
      state: 'OH',
      zip: '43215',
      phoneNumber: '(614) 555-0100',
      isKeyAccount: true,
    }),
    reach: MANAGERS,
  },
  { method: 'DELETE', path: `${v1}/md-offices/{id}`, url: (f) => `${v1}/md-offices/${f.officeId}`, reach: MANAGERS },
  {
    method: 'PUT',
    path: `${v1}/md-offices/{id}/comm-prefs`,
    url: (f) => `${v1}/md-offices/${f.officeId}/comm-prefs`,
    body: () => ({ communicationMode: 'email', paHandling: 'PAViaMDDash', refillRequestOption: 'eRx', notOnboarded: false }),
    reach: MORGAN,
  },
  { method: 'GET', path: `${v1}/md-offices/{id}/staff`, url: (f) => `${v1}/md-offices/${f.officeId}/staff`, reach: MANAGERS },
  {
    method: 'POST',
    path: `${v1}/md-offices/{id}/staff`,
    url: (f) => `${v1}/md-offices/${f.officeId}/staff`,
    body: (f) => ({ mdStaffId: f.staffId }),
    reach: MANAGERS,
  },
  {
    method: 'DELETE',
    path: `${v1}/md-offices/{id}/staff/{staffId}`,
    url: (f) => `${v1}/md-offices/${f.officeId}/staff/${f.staffId}`,
    prepare: (f) =>
      t.database.db.insert(s.officeMembers).values({ mdOfficeId: f.officeId, mdStaffId: f.staffId }).onConflictDoNothing(),
    reach: MANAGERS,
  },
  { method: 'GET', path: `${v1}/staff`, url: () => `${v1}/staff`, reach: MANAGERS },
  { method: 'GET', path: `${v1}/staff/{id}`, url: (f) => `${v1}/staff/${f.staffId}`, reach: MANAGERS },
  {
    method: 'PUT',
    path: `${v1}/md-staff/{id}`,
    url: (f) => `${v1}/md-staff/${f.staffId}`,
    body: () => ({ contactAddresses: [] }),
    reach: MANAGERS,
  },
  { method: 'DELETE', path: `${v1}/md-staff/{id}`, url: (f) => `${v1}/md-staff/${f.staffId}`, reach: MANAGERS },
  {
    method: 'PUT',
    path: `${v1}/md-partner/{id}/comm-prefs`,
    url: (f) => `${v1}/md-partner/${f.staffId}/comm-prefs`,
    body: () => ({ communicationMode: 'email', emailOptIn: 'email' }),
    reach: MANAGERS,
  },
  { method: 'GET', path: `${v1}/users/{userId}/practices`, url: (f, r) => `${u(f, r)}/practices`, reach: ALL },
  { method: 'GET', path: `${v1}/sales-list`, url: () => `${v1}/sales-list`, reach: MANAGERS },
  { method: 'GET', path: `${v1}/zip-info/{zip}`, url: () => `${v1}/zip-info/43215`, reach: ALL },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/verify-address`,
    url: (f, r) => `${u(f, r)}/verify-address`,
    body: () => ({ address1: '1 Main St', city: 'Columbus', state: 'OH', zip: '43215' }),
    reach: ALL,
  },
  { method: 'GET', path: `${v1}/accounts`, url: () => `${v1}/accounts`, reach: ADMINS },
  {
    method: 'POST',
    path: `${v1}/accounts`,
    url: () => `${v1}/accounts`,
    body: (_f, r) => ({ userName: 'Matrix Person', email: `matrix.${r}@demo.hcp`, role: 'provider.sales', mdOfficeId: '' }),
    reach: ADMINS,
  },
  {
    method: 'PUT',
    path: `${v1}/accounts/{id}`,
    url: (f) => `${v1}/accounts/${f.userOf('vam')}`,
    body: () => ({ role: 'mdo.user', mfaEnabled: false, disabled: false }),
    reach: ADMINS,
  },
  {
    method: 'POST',
    path: `${v1}/accounts/{id}/reset-mfa`,
    url: (f) => `${v1}/accounts/${f.userOf('vam')}/reset-mfa`,
    reach: ADMINS,
  },
  { method: 'GET', path: `${v1}/drug-catalogue`, url: () => `${v1}/drug-catalogue?searchText=xif`, reach: PRESCRIBERS },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/prescriptions`,
    url: (f, r) => `${u(f, r)}/prescriptions`,
    body: (f) => ({
      patient: {
        newPatient: {
          fullName: 'Matrix Patient',
          dob: '1970-01-01',
          phoneNumber: '(614) 555-0190',
          address1: '1 Main St',
          city: 'Columbus',
          state: 'OH',
          zip: '43215',
        },
      },
      order: { productId: f.productId, quantity: 30, daysSupply: 30, refills: 1, sig: 'Take 1 daily', substitutionAllowed: true },
    }),
    reach: PRESCRIBERS,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/prescription-draft`,
    url: (f, r) => `${u(f, r)}/prescription-draft`,
    reach: PRESCRIBERS,
  },
  {
    method: 'PUT',
    path: `${v1}/users/{userId}/prescription-draft`,
    url: (f, r) => `${u(f, r)}/prescription-draft`,
    body: () => ({ draft: { sig: 'Take 1 daily' } }),
    reach: PRESCRIBERS,
  },
  {
    method: 'DELETE',
    path: `${v1}/users/{userId}/prescription-draft`,
    url: (f, r) => `${u(f, r)}/prescription-draft`,
    reach: PRESCRIBERS,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/appeal-auth`,
    url: (f, r) => `${u(f, r)}/appeal-auth`,
    body: (f) => ({ prescriptionId: f.rx.ownAppeal }),
    reach: ['prescriber'],
  },
];

/**
 * Routes outside the portal session: reset by e-mailed token, the brand of the page, and the appeal calls
 * (their own appeal-scoped token; tested in appeals.test.ts).
 */
const PUBLIC = new Set([
  'PUT /api/mdo/v1/update-password',
  'GET /api/mdo/v1/tenant',
  'POST /api/mdo/v1/appeal-auth',
  'GET /api/mdo/v1/appeal/{id}',
  'POST /api/mdo/v1/appeal/{id}/save',
  'POST /api/mdo/v1/appeal/{id}/file-upload',
  'POST /api/mdo/v1/appeal/{id}/submit',
  'GET /api/mdo/v1/appeal/{id}/files/{slot}',
  'DELETE /api/mdo/v1/appeal/{id}/files/{slot}',
]);

let t: TestApp;
let tokens: Record<Role, Tokens>;
let fixture: Fixture;

beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  const db = t.database.db;
  const [prescriber, staff, admin, sales, harrow, vam] = await Promise.all([
    signIn(t.app, 'dr.morgan@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
    signIn(t.app, 'admin@demo.hcp'),
    signIn(t.app, 'sales@demo.hcp'),
    signIn(t.app, 'dr.kim@harrow.demo.hcp', 'harrow.localhost'),
    signIn(t.app, 'vam.staff@demo.hcp'),
  ]);
  tokens = { prescriber, staff, admin, sales, harrow, vam } as Record<Role, Tokens>;
  const [office] = await db.select().from(s.mdOffices).where(eq(s.mdOffices.name, 'Morgan Family Medicine'));
  const officeId = office?.id as string;
  const [member] = await db
    .select({ id: s.mdStaff.id })
    .from(s.mdStaff)
    .innerJoin(s.officeMembers, eq(s.officeMembers.mdStaffId, s.mdStaff.id))
    .where(and(eq(s.officeMembers.mdOfficeId, officeId), eq(s.mdStaff.role, 'STAFF')));
  const rxOf = async (condition: Parameters<typeof and>[0]) => {
    const [row] = await db
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .where(and(eq(s.prescriptions.mdOfficeId, officeId), condition))
      .limit(1);
    return row?.id as string;
  };
  const [patient] = await db.select().from(s.patients).where(eq(s.patients.mdOfficeId, officeId)).limit(1);
  const [mention] = await db.select().from(s.commentMentions).where(eq(s.commentMentions.mdOfficeId, officeId)).limit(1);
  const users = await db.select({ id: s.users.id, email: s.users.email }).from(s.users);
  const idOf = (email: string) => users.find((x) => x.email === email)?.id as string;
  fixture = {
    me: (role) => tokens[role].userID,
    officeId,
    staffId: member?.id as string,
    patientId: patient?.id as string,
    mentionId: mention?.id as string,
    rx: {
      refill: await rxOf(eq(s.prescriptions.needsRefillAuth, true)),
      altMed: await rxOf(isNotNull(s.prescriptions.substitutionStatus)),
      chartNotes: await rxOf(
        inArray(s.prescriptions.priorAuthStatus, ['PRIOR_AUTH_CHART_NOTES_NEEDED', 'PRIOR_AUTH_ICD10_NEEDED']),
      ),
      any: await rxOf(undefined),
      // An appeal Dr. Morgan prescribed (only its prescriber opens it from the portal).
      ownAppeal: await rxOf(
        and(
          eq(s.prescriptions.hcpActionRequired, true),
          eq(
            s.prescriptions.prescriberId,
            (await db.select().from(s.users).where(eq(s.users.email, 'dr.morgan@demo.hcp')))[0]?.mdStaffId as string,
          ),
        ),
      ),
    },
    productId: ((await db.select().from(s.drugProducts).where(eq(s.drugProducts.isControlled, false)).limit(1))[0]?.id ??
      '') as string,
    userOf: (role) => (role === 'vam' ? idOf('vam.staff@demo.hcp') : tokens[role].userID),
  };
  for (const [name, value] of Object.entries({ ...fixture.rx, staffId: fixture.staffId, patientId: fixture.patientId })) {
    if (!value) throw new Error(`the demo seed has no ${name} for the matrix`);
  }
});
afterAll(() => t.close());

describe('permissions matrix', () => {
  it('has a row for every signed-in API route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, object> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/mdo/'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((key) => !PUBLIC.has(key));
    expect(ROWS.map((r) => `${r.method} ${r.path}`).sort()).toEqual(documented.sort());
  });

  for (const row of ROWS) {
    it(`${row.method} ${row.path}`, async () => {
      const outcome: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const role of ROLES) {
        await row.prepare?.(fixture);
        const body = row.body?.(fixture, role);
        const res = await injectAs(t.app, tokens[role], {
          method: row.method,
          url: row.url(fixture, role),
          ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
        });
        outcome[role] = [401, 403, 404].includes(res.statusCode) ? `hidden (${res.statusCode})` : 'reached';
        expected[role] = row.reach.includes(role) ? 'reached' : 'hidden (404)';
      }
      expect(outcome).toEqual(expected);
      // Without a session every one of them is 401.
      const anonymous = await t.app.inject({ method: row.method, url: row.url(fixture, 'prescriber') });
      expect(anonymous.statusCode).toBe(401);
    });
  }

  it("answers 404 for another user's id in every per-user route", async () => {
    for (const row of ROWS.filter((r) => r.path.includes('/users/{userId}/'))) {
      const url = row.url(fixture, 'staff');
      const body = row.body?.(fixture, 'staff');
      const res = await injectAs(t.app, tokens.prescriber, {
        method: row.method,
        url,
        ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
      });
      expect(res.statusCode, `${row.method} ${row.path}`).toBe(404);
    }
  });
});
