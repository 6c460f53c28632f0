/** Manage Communications: practices, HCPs and staff, preferences, permissions, deletes, ZIP lookup and address checks. */
import {
  mdOfficeSchema,
  mdOfficeSearchResponseSchema,
  mdStaffSchema,
  mdStaffSearchResponseSchema,
  officeStaffListSchema,
  type Tokens,
} from '@hcp/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { npiFrom } from '../src/seed/generate.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { errorPaths } from './support/errors.ts';

let t: TestApp;
let admin: Tokens;
let sales: Tokens;
let staffUser: Tokens;
let harrow: Tokens;
let morganOffice: typeof s.mdOffices.$inferSelect;
let mainTenantId: string;

beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  [admin, sales, staffUser, harrow] = await Promise.all([
    signIn(t.app, 'admin@demo.hcp'),
    signIn(t.app, 'sales@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
    signIn(t.app, 'dr.kim@harrow.demo.hcp', 'harrow.localhost'),
  ]);
  [morganOffice] = (await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.name, 'Morgan Family Medicine'))) as [
    typeof s.mdOffices.$inferSelect,
  ];
  mainTenantId = morganOffice.tenantId;
});
afterAll(() => t.close());

let requestCounter = 0;
const requestId = () => `mc${String(++requestCounter).padStart(22, '0')}`;
const as = (who: Tokens, options: InjectOptions) =>
  injectAs(t.app, who, {
    ...options,
    headers: { ...(options.method !== 'GET' ? { 'x-request-id': requestId() } : {}), ...(options.headers ?? {}) },
  });

const validOffice = {
  name: 'Lakeside Eye Care',
  address1: '12 Lake St',
  address2: '',
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  phoneNumber: '(614) 555-0100',
  faxNumber: '',
  email: 'front@lakeside.example',
  isKeyAccount: true,
  salesUserId: '',
};

async function searchOffices(who: Tokens, query: string) {
  const res = await as(who, { method: 'GET', url: `/api/mdo/v1/md-offices-search?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return mdOfficeSearchResponseSchema.parse(res.json());
}

async function createOffice(overrides: Record<string, unknown> = {}) {
  const res = await as(admin, { method: 'POST', url: '/api/mdo/v1/md-offices', payload: { ...validOffice, ...overrides } });
  expect(res.statusCode, res.body).toBe(201);
  return mdOfficeSchema.parse(res.json());
}

const auditCount = async (action: string, entityId?: string) => {
  const [row] = await t.database.db
    .select({ n: count() })
    .from(s.auditLog)
    .where(and(eq(s.auditLog.action, action), entityId ? eq(s.auditLog.entityId, entityId) : undefined));
  return row?.n ?? 0;
};

describe('practice search', () => {
  it('lists every practice of the tenant, 25 a page, sorted by name, for admin and sales alike', async () => {
    const [expected] = await t.database.db
      .select({ n: count() })
      .from(s.mdOffices)
      .where(and(eq(s.mdOffices.tenantId, mainTenantId), isNull(s.mdOffices.deletedAt)));
    const first = await searchOffices(admin, 'offset=0&limit=25');
    expect(first.total).toBe(expected?.n);
    expect(first.total).toBeGreaterThan(25);
    expect(first.records).toHaveLength(25);
    const names = first.records.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const second = await searchOffices(admin, 'offset=25&limit=25');
    expect(second.records).toHaveLength((expected?.n ?? 0) - 25);
    expect(new Set([...first.records, ...second.records].map((r) => r.id)).size).toBe(expected?.n);
    expect(await searchOffices(sales, 'offset=0&limit=25')).toEqual(first);
    // Past the end: no rows, but the total still tells the screen how many pages there are.
    expect(await searchOffices(admin, 'offset=500&limit=25')).toEqual({ records: [], total: expected?.n });
  });

  it('finds practices by practice name, HCP name and NPI', async () => {
    const byName = await searchOffices(admin, 'searchText=morgan%20family');
    expect(byName.records.map((r) => r.name)).toEqual(['Morgan Family Medicine']);
    const record = byName.records[0];
    expect(record).toMatchObject({ city: morganOffice.city, state: morganOffice.state, isKeyAccount: morganOffice.isKeyAccount });

    const byHcp = await searchOffices(admin, 'searchText=Alex%20Morgan');
    expect(byHcp.records.map((r) => r.id)).toContain(morganOffice.id);

    const [alex] = await t.database.db.select().from(s.mdStaff).where(eq(s.mdStaff.lastName, 'Morgan'));
    const byNpi = await searchOffices(admin, `searchText=${alex?.npi}`);
    expect(byNpi.records.map((r) => r.id)).toEqual([morganOffice.id]);

    expect(await searchOffices(admin, 'searchText=zzzz-no-such-practice')).toEqual({ records: [], total: 0 });
    // LIKE wildcards are searched for literally.
    expect((await searchOffices(admin, 'searchText=%25')).total).toBe(0);
  });

  it('does not exist for office users, and never shows another tenant', async () => {
    for (const who of [staffUser, harrow]) {
      const res = await as(who, { method: 'GET', url: '/api/mdo/v1/md-offices-search' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    const noToken = await t.app.inject({ method: 'GET', url: '/api/mdo/v1/md-offices-search' });
    expect(noToken.statusCode).toBe(401);
    const harrowNames = await t.database.db
      .select({ id: s.mdOffices.id })
      .from(s.mdOffices)
      .where(eq(s.mdOffices.tenantId, harrowTenant()));
    const all = [...(await searchOffices(admin, 'limit=100')).records];
    for (const h of harrowNames) expect(all.map((r) => r.id)).not.toContain(h.id);
  });
});

let harrowTenantId = '';
const harrowTenant = () => harrowTenantId;
beforeAll(async () => {
  const [tenant] = await t.database.db.select().from(s.tenants).where(eq(s.tenants.key, 'harrow'));
  harrowTenantId = tenant?.id as string;
});

describe('creating and editing a practice', () => {
  it('refuses bad input with one error per field and writes nothing', async () => {
    const before = await searchOffices(admin, 'limit=1');
    const res = await as(admin, {
      method: 'POST',
      url: '/api/mdo/v1/md-offices',
      payload: { ...validOffice, phoneNumber: '614-555', state: 'DC', zip: '4321', email: 'nope@', faxNumber: '12' },
    });
    expect(res.statusCode).toBe(400);
    const paths = errorPaths(res);
    expect(paths).toEqual(['body.email', 'body.faxNumber', 'body.phoneNumber', 'body.state', 'body.zip']);
    expect((await searchOffices(admin, 'limit=1')).total).toBe(before.total);

    const badSales = await as(admin, {
      method: 'POST',
      url: '/api/mdo/v1/md-offices',
      payload: { ...validOffice, salesUserId: admin.userID },
    });
    expect(badSales.statusCode).toBe(400);
    expect(badSales.json().error.details[0].path).toBe('body.salesUserId');
    expect((await searchOffices(admin, 'limit=1')).total).toBe(before.total);
  });

  it('creates once per request id, starts not onboarded, and audits it', async () => {
    const headers = { 'x-request-id': 'mcCreateOnce000000000001' };
    const first = await as(admin, { method: 'POST', url: '/api/mdo/v1/md-offices', payload: validOffice, headers });
    const again = await as(admin, { method: 'POST', url: '/api/mdo/v1/md-offices', payload: validOffice, headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    const created = mdOfficeSchema.parse(first.json());
    expect(created).toMatchObject({
      name: 'Lakeside Eye Care',
      address2: null,
      faxNumber: null,
      salesUserId: null,
      canEdit: true,
      mdOfficePrefs: { notOnboarded: true },
    });
    expect((await searchOffices(admin, 'searchText=lakeside%20eye')).total).toBe(1);
    expect(await auditCount('practice.create', created.id)).toBe(1);
  });

  it('updates details and communication preferences; office users edit only their own practice preferences', async () => {
    const office = await createOffice({ name: 'Riverside Clinic' });
    const [salesRow] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'sales@demo.hcp'));
    const change = { ...validOffice, name: 'Riverside Clinic North', salesUserId: salesRow?.id, address2: 'Suite 4' };
    // The sales user cannot make themselves the practice's representative (issue 42): 400 naming the field, and
    // nothing of the request is saved; the admin can.
    const selfGrant = await as(sales, { method: 'PUT', url: `/api/mdo/v1/md-offices/${office.id}`, payload: change });
    expect(selfGrant.statusCode).toBe(400);
    expect(selfGrant.json().error.details).toEqual([
      { path: 'body.salesUserId', message: "Only an administrator changes a practice's sales representative." },
    ]);
    expect((await as(admin, { method: 'GET', url: `/api/mdo/v1/md-offices/${office.id}` })).json()).toMatchObject({
      name: 'Riverside Clinic',
      salesUserId: null,
    });
    const updated = await as(admin, { method: 'PUT', url: `/api/mdo/v1/md-offices/${office.id}`, payload: change });
    expect(updated.statusCode, updated.body).toBe(200);
    // Now theirs, the sales user edits the details and leaves the representative as it is.
    const kept = await as(sales, {
      method: 'PUT',
      url: `/api/mdo/v1/md-offices/${office.id}`,
      payload: { ...change, address2: 'Suite 4' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Riverside Clinic North', address2: 'Suite 4', salesUserId: salesRow?.id });
    const [audit] = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'practice.update'), eq(s.auditLog.entityId, office.id)));
    expect([...((audit?.details as { fields?: string[] } | undefined)?.fields ?? [])].sort()).toEqual([
      'address2',
      'name',
      'salesUserId',
    ]);

    const prefs = { communicationMode: 'fax', paHandling: 'DoNotDoPA', refillRequestOption: 'Fax', notOnboarded: false };
    const saved = await as(admin, { method: 'PUT', url: `/api/mdo/v1/md-offices/${office.id}/comm-prefs`, payload: prefs });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().mdOfficePrefs).toMatchObject(prefs);
    const bad = await as(admin, {
      method: 'PUT',
      url: `/api/mdo/v1/md-offices/${office.id}/comm-prefs`,
      payload: { ...prefs, communicationMode: 'pigeon' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0]).toEqual({
      path: 'body.communicationMode',
      message: 'Choose how the practice is contacted.',
    });

    // The office user: their own practice, read and preferences only.
    const own = await as(staffUser, { method: 'GET', url: `/api/mdo/v1/md-offices/${morganOffice.id}` });
    expect(own.statusCode).toBe(200);
    expect(own.json().canEdit).toBe(false);
    const ownPrefs = await as(staffUser, {
      method: 'PUT',
      url: `/api/mdo/v1/md-offices/${morganOffice.id}/comm-prefs`,
      payload: prefs,
    });
    expect(ownPrefs.statusCode).toBe(200);
    expect(await auditCount('practice.comm-prefs.update', morganOffice.id)).toBe(1);
    for (const [method, url, payload] of [
      ['GET', `/api/mdo/v1/md-offices/${office.id}`, undefined],
      ['PUT', `/api/mdo/v1/md-offices/${office.id}/comm-prefs`, prefs],
      ['PUT', `/api/mdo/v1/md-offices/${morganOffice.id}`, validOffice],
      ['GET', `/api/mdo/v1/md-offices/${morganOffice.id}/staff`, undefined],
      ['DELETE', `/api/mdo/v1/md-offices/${morganOffice.id}`, undefined],
      ['GET', '/api/mdo/v1/sales-list', undefined],
      ['GET', '/api/mdo/v1/staff', undefined],
    ] as const) {
      const res = await as(staffUser, { method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // Another tenant's user cannot even read it.
    expect((await as(harrow, { method: 'GET', url: `/api/mdo/v1/md-offices/${office.id}` })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown or malformed practice id', async () => {
    const unknown = await as(admin, { method: 'GET', url: '/api/mdo/v1/md-offices/00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    const malformed = await as(admin, { method: 'GET', url: '/api/mdo/v1/md-offices/not-an-id' });
    expect([400, 404]).toContain(malformed.statusCode);
  });
});

describe('deleting a practice', () => {
  it('is refused while prescriptions wait for action, with the reason', async () => {
    const res = await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-offices/${morganOffice.id}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/prescriptions? waiting for action/);
    const [row] = await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.id, morganOffice.id));
    expect(row?.deletedAt).toBeNull();
  });

  it('is soft: the practice leaves the lists but its row stays for history', async () => {
    const office = await createOffice({ name: 'Short Lived Practice' });
    const res = await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-offices/${office.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: office.id, deleted: true });
    expect((await searchOffices(admin, 'searchText=short%20lived')).total).toBe(0);
    const [row] = await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.id, office.id));
    expect(row?.deletedAt).not.toBeNull();
    expect((await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-offices/${office.id}` })).statusCode).toBe(404);
    expect(await auditCount('practice.delete', office.id)).toBe(1);
  });
});

const newHcp = (npiStem: string, extra: Record<string, unknown> = {}) => ({
  fullName: 'Rosa Delgado',
  role: 'MD',
  npi: npiFrom(npiStem),
  specialty: 'Ophthalmology',
  phoneNumber: '(614) 555-0177',
  faxNumber: '',
  email: 'rosa.delgado@lakeside.example',
  ...extra,
});

describe('HCPs and staff', () => {
  it('creates a person in a practice, validates role and NPI together, and refuses a duplicate NPI', async () => {
    const office = await createOffice({ name: 'Staffing Test Practice' });
    const url = `/api/mdo/v1/md-offices/${office.id}/staff`;
    const noNpi = await as(admin, { method: 'POST', url, payload: { staff: newHcp('123456789', { npi: '' }) } });
    expect(noNpi.statusCode).toBe(400);
    expect(noNpi.json().error.details).toEqual([{ path: 'body.staff.npi', message: 'A prescriber needs an NPI.' }]);
    const badNpi = await as(admin, { method: 'POST', url, payload: { staff: newHcp('123456789', { npi: '1234567890' }) } });
    expect(badNpi.statusCode).toBe(400);
    const badName = await as(admin, { method: 'POST', url, payload: { staff: newHcp('123456789', { fullName: 'Rosa' }) } });
    expect(badName.json().error.details[0].path).toBe('body.staff.fullName');

    const created = await as(admin, { method: 'POST', url, payload: { staff: newHcp('123456789') } });
    expect(created.statusCode, created.body).toBe(200);
    const person = mdStaffSchema.parse(created.json());
    expect(person).toMatchObject({
      fullName: 'Rosa Delgado',
      role: 'MD',
      npi: npiFrom('123456789'),
      practices: [{ id: office.id, name: 'Staffing Test Practice' }],
      hasPortalAccount: false,
      contactAddresses: [],
    });
    const list = await as(admin, { method: 'GET', url });
    expect(officeStaffListSchema.parse(list.json()).map((p) => p.id)).toEqual([person.id]);

    const duplicate = await as(admin, {
      method: 'POST',
      url,
      payload: { staff: newHcp('123456789', { fullName: 'Other Person' }) },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.details[0].path).toBe('body.staff.npi');

    // Staff members have no NPI.
    const staffWithNpi = await as(admin, {
      method: 'POST',
      url,
      payload: { staff: newHcp('223456789', { role: 'STAFF', fullName: 'Tom Reyes' }) },
    });
    expect(staffWithNpi.json().error.details[0].message).toBe('Office staff have no NPI; leave it empty.');
    expect(await auditCount('staff.create', person.id)).toBe(1);
  });

  it('adds an existing person to another practice and removes them again', async () => {
    const a = await createOffice({ name: 'Link Practice A' });
    const b = await createOffice({ name: 'Link Practice B' });
    const person = mdStaffSchema.parse(
      (
        await as(admin, { method: 'POST', url: `/api/mdo/v1/md-offices/${a.id}/staff`, payload: { staff: newHcp('323456789') } })
      ).json(),
    );
    const linked = await as(admin, {
      method: 'POST',
      url: `/api/mdo/v1/md-offices/${b.id}/staff`,
      payload: { mdStaffId: person.id },
    });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().practices.map((p: { name: string }) => p.name)).toEqual(['Link Practice A', 'Link Practice B']);
    const removed = await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-offices/${b.id}/staff/${person.id}` });
    expect(removed.statusCode).toBe(200);
    expect((await as(admin, { method: 'GET', url: `/api/mdo/v1/md-offices/${b.id}/staff` })).json()).toEqual([]);
    expect((await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-offices/${b.id}/staff/${person.id}` })).statusCode).toBe(
      404,
    );
    // Someone of another tenant cannot be linked: outside the caller's reach, so 404 like any such id (issue 42).
    const [kim] = await t.database.db.select().from(s.mdStaff).where(eq(s.mdStaff.lastName, 'Kim'));
    const foreign = await as(admin, {
      method: 'POST',
      url: `/api/mdo/v1/md-offices/${b.id}/staff`,
      payload: { mdStaffId: kim?.id },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe('HCP or staff member not found.');
  });

  it('refuses to remove or delete a prescriber with open prescriptions, or a person with a portal account', async () => {
    const [alex] = await t.database.db
      .select()
      .from(s.mdStaff)
      .where(and(eq(s.mdStaff.firstName, 'Alex'), eq(s.mdStaff.lastName, 'Morgan')));
    const remove = await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-offices/${morganOffice.id}/staff/${alex?.id}` });
    expect(remove.statusCode).toBe(409);
    const del = await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-staff/${alex?.id}` });
    expect(del.statusCode).toBe(409);
    const [jamie] = await t.database.db.select().from(s.mdStaff).where(eq(s.mdStaff.lastName, 'Lee'));
    const delStaff = await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-staff/${jamie?.id}` });
    expect(delStaff.statusCode).toBe(409);
    expect(delStaff.json().error.message).toMatch(/portal account/);
  });

  it('edits details, preferences and contact addresses (checked against the ZIP table), then deletes softly', async () => {
    const office = await createOffice({ name: 'Edit People Practice' });
    const person = mdStaffSchema.parse(
      (
        await as(admin, {
          method: 'POST',
          url: `/api/mdo/v1/md-offices/${office.id}/staff`,
          payload: { staff: newHcp('423456789') },
        })
      ).json(),
    );
    const details = await as(admin, {
      method: 'PUT',
      url: `/api/mdo/v1/md-staff/${person.id}`,
      payload: newHcp('423456789', { fullName: 'Rosa M. Delgado', role: 'NP', specialty: '' }),
    });
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json()).toMatchObject({ fullName: 'Rosa M. Delgado', role: 'NP', specialty: null });

    const prefs = await as(admin, {
      method: 'PUT',
      url: `/api/mdo/v1/md-partner/${person.id}/comm-prefs`,
      payload: { communicationMode: 'both', emailOptIn: 'doNot' },
    });
    expect(prefs.json().commPrefs).toEqual({ communicationMode: 'both', emailOptIn: 'doNot' });

    const addresses = await as(admin, {
      method: 'PUT',
      url: `/api/mdo/v1/md-staff/${person.id}`,
      payload: {
        contactAddresses: [
          { label: 'Office', address1: ' 12  Lake St ', address2: '', city: 'columbus', state: 'OH', zip: '43215' },
          { label: 'Mailing', address1: 'PO Box 9', address2: '', city: 'Springfield', state: 'OH', zip: '02108' },
        ],
      },
    });
    expect(addresses.statusCode, addresses.body).toBe(200);
    expect(addresses.json().contactAddresses).toEqual([
      { label: 'Office', address1: '12 Lake St', address2: null, city: 'columbus', state: 'OH', zip: '43215', verified: true },
      { label: 'Mailing', address1: 'PO Box 9', address2: null, city: 'Boston', state: 'MA', zip: '02108', verified: false },
    ]);
    const fetched = await as(admin, { method: 'GET', url: `/api/mdo/v1/staff/${person.id}` });
    expect(fetched.json().contactAddresses).toHaveLength(2);

    const del = await as(admin, { method: 'DELETE', url: `/api/mdo/v1/md-staff/${person.id}` });
    expect(del.statusCode).toBe(200);
    expect((await as(admin, { method: 'GET', url: `/api/mdo/v1/staff/${person.id}` })).statusCode).toBe(404);
    expect((await as(admin, { method: 'GET', url: `/api/mdo/v1/md-offices/${office.id}/staff` })).json()).toEqual([]);
    for (const action of ['staff.update', 'staff.comm-prefs.update', 'staff.addresses.update', 'staff.delete']) {
      expect(await auditCount(action, person.id), action).toBe(1);
    }
  });

  it('searches HCPs and staff by name, NPI and practice, 25 a page', async () => {
    const res = await as(admin, { method: 'GET', url: '/api/mdo/v1/staff?searchText=alex%20morgan' });
    const byName = mdStaffSearchResponseSchema.parse(res.json());
    expect(byName.records[0]).toMatchObject({ name: 'Alex Morgan', role: 'MD', practiceNames: ['Morgan Family Medicine'] });
    const npi = byName.records[0]?.npi as string;
    const byNpi = mdStaffSearchResponseSchema.parse(
      (await as(admin, { method: 'GET', url: `/api/mdo/v1/staff?searchText=${npi}` })).json(),
    );
    expect(byNpi.records.map((r) => r.name)).toEqual(['Alex Morgan']);
    const byPractice = mdStaffSearchResponseSchema.parse(
      (await as(admin, { method: 'GET', url: '/api/mdo/v1/staff?searchText=morgan%20family&limit=100' })).json(),
    );
    expect(byPractice.records.map((r) => r.name)).toContain('Jamie Lee');
    const page = mdStaffSearchResponseSchema.parse((await as(admin, { method: 'GET', url: '/api/mdo/v1/staff' })).json());
    expect(page.records).toHaveLength(25);
    expect(page.total).toBeGreaterThan(25);
  });

  it('lists the sales users for the practice form', async () => {
    const res = await as(admin, { method: 'GET', url: '/api/mdo/v1/sales-list' });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((u: { email: string }) => u.email)).toEqual(['sales@demo.hcp']);
  });
});

describe('ZIP lookup and address verification', () => {
  it('answers city and state of a ZIP from the shipped table', async () => {
    const res = await as(staffUser, { method: 'GET', url: '/api/mdo/v1/zip-info/43215' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ zip: '43215', city: 'Columbus', state: 'OH' });
    // A ZIP no demo practice uses: the table is the full US list, not the demo's.
    expect((await as(staffUser, { method: 'GET', url: '/api/mdo/v1/zip-info/59801' })).json()).toEqual({
      zip: '59801',
      city: 'Missoula',
      state: 'MT',
    });
    expect((await as(staffUser, { method: 'GET', url: '/api/mdo/v1/zip-info/00000' })).statusCode).toBe(404);
    expect((await as(staffUser, { method: 'GET', url: '/api/mdo/v1/zip-info/4321x' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/mdo/v1/zip-info/43215' })).statusCode).toBe(401);
  });

  it('verifies an address: matching, corrected city and state, unknown ZIP, and only for oneself', async () => {
    const url = `/api/mdo/v1/users/${staffUser.userID}/verify-address`;
    const ok = await as(staffUser, {
      method: 'POST',
      url,
      payload: { address1: '1 Main St', address2: '', city: 'Columbus', state: 'OH', zip: '43215-1234' },
    });
    expect(ok.json()).toMatchObject({ verified: true, problems: [] });
    const wrong = await as(staffUser, {
      method: 'POST',
      url,
      payload: { address1: '1 Main St', city: 'Dayton', state: 'TX', zip: '43215' },
    });
    expect(wrong.json()).toEqual({
      verified: false,
      address: { address1: '1 Main St', address2: null, city: 'Columbus', state: 'OH', zip: '43215' },
      problems: [
        { field: 'state', message: 'ZIP code 43215 is in OH.' },
        { field: 'city', message: 'ZIP code 43215 is in Columbus.' },
      ],
    });
    const unknown = await as(staffUser, {
      method: 'POST',
      url,
      payload: { address1: '1 Main St', city: 'Nowhere', state: 'OH', zip: '00000' },
    });
    expect(unknown.json().problems).toEqual([{ field: 'zip', message: 'ZIP code 00000 was not found.' }]);
    const invalid = await as(staffUser, { method: 'POST', url, payload: { address1: '', city: 'X', state: 'ZZ', zip: '1' } });
    expect(invalid.statusCode).toBe(400);
    const other = await as(staffUser, {
      method: 'POST',
      url: `/api/mdo/v1/users/${admin.userID}/verify-address`,
      payload: { address1: '1 Main St', city: 'Columbus', state: 'OH', zip: '43215' },
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('practices of the signed-in user', () => {
  it('lists an office user’s own practices with their preferences, and nobody else’s', async () => {
    const res = await as(staffUser, { method: 'GET', url: `/api/mdo/v1/users/${staffUser.userID}/practices` });
    expect(res.statusCode, res.body).toBe(200);
    const practices = res.json() as { id: string; name: string; mdOfficePrefs: Record<string, unknown> }[];
    expect(practices.map((p) => p.name)).toEqual(['Morgan Family Medicine']);
    expect(Object.keys(practices[0]?.mdOfficePrefs ?? {}).sort()).toEqual([
      'communicationMode',
      'notOnboarded',
      'paHandling',
      'refillRequestOption',
    ]);
    const other = await as(staffUser, { method: 'GET', url: `/api/mdo/v1/users/${admin.userID}/practices` });
    expect(other.statusCode).toBe(404);
    const kim = await as(harrow, { method: 'GET', url: `/api/mdo/v1/users/${harrow.userID}/practices` });
    expect(kim.json().map((p: { id: string }) => p.id)).not.toContain(morganOffice.id);
  });
});

describe('adding a person to a practice', () => {
  it('reports each field of a new person, and needs exactly one of an existing person or a new one', async () => {
    const url = `/api/mdo/v1/md-offices/${morganOffice.id}/staff`;
    const bad = await as(admin, {
      method: 'POST',
      url,
      payload: { staff: { fullName: 'X', role: 'NURSE', npi: '', email: 'nope' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorPaths(bad)).toEqual(['body.staff.email', 'body.staff.fullName', 'body.staff.role']);
    for (const payload of [{}, { mdStaffId: morganOffice.id, staff: newHcp('523456789') }]) {
      const res = await as(admin, { method: 'POST', url, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].message).toBe('Choose an existing person or describe a new one.');
    }
  });
});
