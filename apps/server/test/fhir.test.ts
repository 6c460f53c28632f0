/**
 * The FHIR R4 API, first slice (issue 19): the CapabilityStatement; practices and HCPs read and searched by a
 * system token of their tenant and scopes only; answers in application/fhir+json; failures as OperationOutcome
 * (401 without a system token — a user's session included —, 403 outside the token's scopes, 404 for another
 * tenant's or an unknown id, 400 for a bad parameter); every read audited with the client.
 */
import { NPI_SYSTEM } from '@hcp/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { parseToken } from '../src/features/fhir/mapping/common.ts';
import { toOrganization, toPractitioner } from '../src/features/fhir/mapping/directory.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { authHeaders, signIn } from './support/auth.ts';
import { systemToken as systemTokenOf } from './support/fhir.ts';

const PUBLIC_URL = 'https://portal.test';
let t: TestApp;
let readToken: string;
let writeOnlyToken: string;
let clientId: string;
let mainTenant: string;

const systemToken = (scopes: string[], scope: string) =>
  systemTokenOf(t, { tenantId: mainTenant, scopes, scope, publicUrl: PUBLIC_URL });

/** A practice of the other brand's tenant: outside every token of these tests. */
async function otherTenantPractice() {
  const [harrow] = await t.database.db
    .select({ id: s.mdOffices.id })
    .from(s.mdOffices)
    .innerJoin(s.tenants, eq(s.tenants.id, s.mdOffices.tenantId))
    .where(eq(s.tenants.key, 'harrow'))
    .limit(1);
  return harrow;
}

const get = (url: string, token = readToken) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  mainTenant = (await t.database.db.select().from(s.tenants).where(eq(s.tenants.key, 'main')))[0]?.id as string;
  ({ token: readToken, clientId } = await systemToken(['system/*.read'], 'system/*.read'));
  ({ token: writeOnlyToken } = await systemToken(['system/Task.write'], 'system/Task.write'));
});
afterAll(() => t.close());

describe('FHIR R4', () => {
  it('describes itself in a CapabilityStatement with the SMART token endpoint', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata' });
    expect(res.headers['content-type']).toContain('application/fhir+json');
    const body = res.json();
    expect(body).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', kind: 'instance' });
    expect(JSON.stringify(body.rest[0].security)).toContain(`${PUBLIC_URL}/oauth2/token`);
    expect(body.rest[0].resource.map((r: { type: string }) => r.type)).toEqual([
      'Organization',
      'Practitioner',
      'PractitionerRole',
      'Patient',
      'MedicationRequest',
      'Task',
      'Communication',
    ]);
  });

  it('refuses no token, a user session and a token without the scope, as OperationOutcome', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/fhir/R4/Organization' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'login' }] });
    expect(none.headers['www-authenticate']).toContain('Bearer');
    const user = await signIn(t.app, 'admin@demo.hcp');
    const session = await t.app.inject({ method: 'GET', url: '/fhir/R4/Organization', headers: authHeaders(user) });
    expect(session.statusCode).toBe(401);
    const scoped = await get('/fhir/R4/Organization', writeOnlyToken);
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().issue[0]).toMatchObject({ code: 'forbidden' });
  });

  it('reads and searches practices of its own tenant only, with paging links', async () => {
    const harrow = await otherTenantPractice();
    expect((await get(`/fhir/R4/Organization/${harrow?.id}`)).statusCode).toBe(404);
    expect((await get('/fhir/R4/Organization/not-an-id')).json().issue[0].code).toBe('not-found');

    const page = (await get('/fhir/R4/Organization?_count=2')).json();
    const tenantCount = (await t.database.db.execute(
      sql`select count(*)::int as n from md_offices where tenant_id = ${mainTenant} and deleted_at is null`,
    )) as unknown as { rows: { n: number }[] };
    expect(page).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: tenantCount.rows[0]?.n });
    expect(page.entry).toHaveLength(2);
    const next = page.link.find((l: { relation: string }) => l.relation === 'next').url as string;
    expect(next).toContain('_offset=2');
    const second = (await get(next.replace(PUBLIC_URL, ''))).json();
    expect(second.entry[0].resource.id).not.toBe(page.entry[0].resource.id);

    const id = page.entry[0].resource.id as string;
    const read = await get(`/fhir/R4/Organization/${id}`);
    expect(read.headers['content-type']).toContain('application/fhir+json');
    expect(read.json()).toMatchObject({ resourceType: 'Organization', id, meta: { versionId: expect.any(String) } });
  });

  it('finds a prescriber by NPI and refuses an unknown identifier system', async () => {
    const [hcp] = await t.database.db
      .select()
      .from(s.mdStaff)
      .where(and(eq(s.mdStaff.tenantId, mainTenant), isNotNull(s.mdStaff.npi)))
      .limit(1);
    const found = (await get(`/fhir/R4/Practitioner?identifier=${encodeURIComponent(`${NPI_SYSTEM}|${hcp?.npi}`)}`)).json();
    expect(found.total).toBe(1);
    expect(found.entry[0].resource).toMatchObject({
      resourceType: 'Practitioner',
      id: hcp?.id,
      identifier: [{ system: NPI_SYSTEM, value: hcp?.npi }],
      name: [{ family: hcp?.lastName, given: [hcp?.firstName] }],
    });
    const unknown = await get(`/fhir/R4/Practitioner?identifier=${encodeURIComponent('urn:other|1')}`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().issue[0]).toMatchObject({ expression: ['identifier'] });
    const badCount = await get('/fhir/R4/Practitioner?_count=1000');
    expect(badCount.statusCode).toBe(400);
    expect(badCount.json().resourceType).toBe('OperationOutcome');
    const audits = await t.database.db.select().from(s.auditLog).where(eq(s.auditLog.action, 'fhir.Practitioner.search'));
    expect(audits.some((a) => (a.details as { clientId?: string }).clientId === clientId)).toBe(true);
  });
});

describe('FHIR PractitionerRole', () => {
  it("lists a practice's prescribers and staff with their NPI, within the tenant", async () => {
    const [member] = await t.database.db
      .select({ practiceId: s.officeMembers.mdOfficeId })
      .from(s.officeMembers)
      .innerJoin(s.mdOffices, eq(s.mdOffices.id, s.officeMembers.mdOfficeId))
      .where(eq(s.mdOffices.tenantId, mainTenant))
      .limit(1);
    const members = await t.database.db
      .select({ staffId: s.officeMembers.mdStaffId })
      .from(s.officeMembers)
      .where(eq(s.officeMembers.mdOfficeId, member?.practiceId as string));
    const found = (await get(`/fhir/R4/PractitionerRole?organization=Organization/${member?.practiceId}&_count=100`)).json();
    expect(found.total).toBe(members.length);
    expect(
      found.entry.map((e: { resource: { practitioner: { reference: string } } }) => e.resource.practitioner.reference).sort(),
    ).toEqual(members.map((m) => `Practitioner/${m.staffId}`).sort());
    expect(found.entry[0].resource.organization).toEqual({ reference: `Organization/${member?.practiceId}` });
    const harrow = await otherTenantPractice();
    expect((await get(`/fhir/R4/PractitionerRole?organization=${harrow?.id}`)).json().total).toBe(0);
  });
});

describe('FHIR mapping', () => {
  it('maps a practice and an HCP, and reads token parameters', () => {
    const updatedAt = new Date('2026-11-20T10:00:00Z');
    const org = toOrganization({
      id: 'o1',
      name: 'Morgan Family Medicine',
      address1: '1 Main St',
      address2: null,
      city: 'Columbus',
      state: 'OH',
      zip: '43215',
      phone: '(614) 555-0100',
      fax: null,
      email: null,
      updatedAt,
    });
    expect(org.telecom).toEqual([{ system: 'phone', value: '(614) 555-0100', use: 'work' }]);
    expect(org.address[0]).toMatchObject({ line: ['1 Main St'], city: 'Columbus', state: 'OH', postalCode: '43215' });
    expect(org.meta).toEqual({ versionId: String(updatedAt.getTime()), lastUpdated: '2026-11-20T10:00:00.000Z' });
    const staff = toPractitioner({
      id: 's1',
      firstName: 'Jamie',
      lastName: 'Lee',
      npi: null,
      role: 'STAFF',
      specialty: null,
      phone: null,
      fax: null,
      email: null,
      updatedAt,
    });
    expect(staff.identifier).toEqual([]);
    expect(staff.name).toEqual([{ family: 'Lee', given: ['Jamie'] }]);
    expect(parseToken(`${NPI_SYSTEM}|1234567893`)).toEqual({ system: NPI_SYSTEM, value: '1234567893' });
    expect(parseToken('1234567893')).toEqual({ system: null, value: '1234567893' });
  });
});
