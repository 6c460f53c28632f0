/**
 * Hostile resources at the FHIR write side (issue 19): for Patient, MedicationRequest, Task and Communication, 200
 * generated bad resources each (fast-check): required elements dropped, elements of the wrong JSON type, unknown
 * and prototype-pollution keys, codes outside the vocabulary, malformed dates and days that do not exist, bodies that are not a resource
 * or not JSON, references to nothing, over-long text. Each is sent as a create or a conditional update and must
 * be answered 400, 413 or 422 as an OperationOutcome (never 5xx, never 2xx), and the row counts of every table
 * the write side touches must be unchanged afterwards: nothing half-written. FHIR_BAD_RUNS sets the cases.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';
import { communication, countFhirRows, input, mainTenantPharmacy, medicationRequest, patient, task } from './support/fhir.ts';

const RUNS = Number(process.env.FHIR_BAD_RUNS ?? 200);
const PUBLIC_URL = 'https://portal.test';
let t: TestApp;
let token: string;
const valid: Record<string, Record<string, unknown>> = {};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Each resource type's elements our profile needs, its string-valued paths, its coded paths and its dates. */
const SHAPES = {
  Patient: {
    required: ['identifier', 'name', 'birthDate', 'managingOrganization'],
    strings: [['birthDate'], ['name', 0, 'family'], ['identifier', 0, 'value'], ['managingOrganization', 'reference']],
    codes: [] as (string | number)[][],
    dates: [['birthDate']],
    references: [['managingOrganization', 'reference']],
  },
  MedicationRequest: {
    required: ['identifier', 'status', 'intent', 'subject', 'requester', 'medicationCodeableConcept', 'authoredOn'],
    strings: [['status'], ['intent'], ['authoredOn'], ['subject', 'reference'], ['medicationCodeableConcept', 'text']],
    codes: [['status'], ['intent']],
    dates: [['authoredOn']],
    references: [['subject', 'reference']],
  },
  Communication: {
    required: ['identifier', 'status', 'subject', 'payload'],
    strings: [['status'], ['subject', 'reference'], ['payload', 0, 'contentString'], ['identifier', 0, 'value']],
    codes: [['status']],
    dates: [['sent']],
    references: [['subject', 'reference']],
  },
  Task: {
    required: ['identifier', 'status', 'intent', 'code', 'focus'],
    strings: [['status'], ['intent'], ['focus', 'reference'], ['code', 'coding', 0, 'code'], ['identifier', 0, 'system']],
    codes: [['status'], ['intent'], ['code', 'coding', 0, 'code']],
    dates: [] as (string | number)[][],
    references: [['focus', 'reference']],
  },
} as const;
type TypeName = keyof typeof SHAPES;

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
function setPath(target: Record<string, unknown>, path: readonly (string | number)[], value: unknown) {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
}

const HOSTILE = ["' OR 1=1 --", '<script>alert(1)</script>', '\u0000', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '../../etc/passwd', '$\u007Bjndi:ldap://x}'];
const wrongForString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.string(), { minKeys: 1, maxKeys: 2 }),
);
const anyJson: fc.Arbitrary<Json> = fc.jsonValue() as fc.Arbitrary<Json>;

const pad2 = (n: number) => String(n).padStart(2, '0');
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/**
 * Issue 43: dates shaped like dates that name no day (February 30, month 13, day 00, year 0000, 24:00, a zone past
 * ±14:00), alone or with a time; each must be refused, never rolled over into the next month.
 */
const impossibleDate: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc
        .tuple(fc.integer({ min: 1900, max: 2030 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }))
        // Past the month's last day (February 29 only in a year that is not a leap year).
        .map(([y, m, extra]) => {
          const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
          const last = m === 2 && leap ? 29 : (DAYS[m - 1] as number);
          return `${y}-${pad2(m)}-${pad2(Math.min(last + extra, 99))}`;
        }),
      fc.tuple(fc.integer({ min: 1900, max: 2030 }), fc.constantFrom(0, 13, 19, 99)).map(([y, m]) => `${y}-${pad2(m)}-01`),
      fc.integer({ min: 1900, max: 2030 }).map((y) => `${y}-01-00`),
      fc.constantFrom('0000-01-01', '1900-02-29', '2023-02-29', '2100-02-29'),
    ),
    fc.constantFrom('', 'T10:00:00Z', 'T00:00:00+01:00'),
  )
  .map(([day, time]) => `${day}${time}`);
const impossibleTime = fc.constantFrom(
  '2026-01-15T24:00:00Z',
  '2026-01-15T10:60:00Z',
  '2026-01-15T10:00:61Z',
  '2026-01-15T10:00:00+15:00',
  '2026-01-15T10:00:00+05:99',
);

/** One bad body as the text sent, and what makes it bad (printed when a case fails). */
function badResource(type: TypeName): fc.Arbitrary<{ why: string; text: string }> {
  const shape = SHAPES[type];
  const base = () => clone(valid[type] as Record<string, unknown>);
  const as = (why: string, body: unknown) => ({ why, text: JSON.stringify(body) });
  return fc.oneof(
    fc.constantFrom(...shape.required).map((key) => {
      const body = base();
      delete body[key];
      return as(`without ${key}`, body);
    }),
    fc.tuple(fc.constantFrom(...shape.strings), wrongForString).map(([path, value]) => {
      const body = base();
      setPath(body, path, value);
      return as(`${path.join('.')} of the wrong type`, body);
    }),
    fc.tuple(fc.stringMatching(/^[a-z][A-Za-z0-9]{0,12}$/), anyJson).map(([key, value]) => {
      const body = base();
      body[`x${key}`] = value;
      return as(`unknown element x${key}`, body);
    }),
    fc
      .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'), anyJson)
      .map(([key, value]) => {
        const text = JSON.stringify(base()).replace(/^\{/, `{${JSON.stringify(key)}:${JSON.stringify(value)},`);
        return { why: `prototype key ${key}`, text };
      }),
    ...(shape.codes.length
      ? [
          fc
            .tuple(
              fc.constantFrom(...shape.codes),
              fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ minLength: 1, maxLength: 40 })),
            )
            .map(([path, code]) => {
              const body = base();
              setPath(body, path, `zz${code}`);
              return as(`${path.join('.')} outside the vocabulary`, body);
            }),
        ]
      : []),
    ...(shape.dates.length
      ? [
          fc
            .tuple(
              fc.constantFrom(...shape.dates),
              fc.oneof(fc.constantFrom('2026-13-45', '12/01/2026', 'yesterday', ''), fc.string({ maxLength: 12 })),
            )
            .filter(([, text]) => !/^\d{4}(-\d{2}(-\d{2}(T.*)?)?)?$/.test(text))
            .map(([path, text]) => {
              const body = base();
              setPath(body, path, text);
              return as(`${path.join('.')} not a date: ${JSON.stringify(text)}`, body);
            }),
          fc.tuple(fc.constantFrom(...shape.dates), fc.oneof(impossibleDate, impossibleTime)).map(([path, text]) => {
            const body = base();
            setPath(body, path, text);
            return as(`${path.join('.')} a day that does not exist: ${text}`, body);
          }),
        ]
      : []),
    fc
      .tuple(
        fc.constantFrom(...shape.references),
        fc.constantFrom('Organization/', 'Patient/../../x', 'http://evil.test/x', 'Nope/1'),
      )
      .map(([path, reference]) => {
        const body = base();
        setPath(body, path, reference);
        return as(`${path.join('.')} names nothing: ${reference}`, body);
      }),
    fc.constantFrom(...shape.required).map((key) => {
      const body = base();
      body[key] = null;
      return as(`${key} null`, body);
    }),
    fc
      .oneof(
        anyJson.filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
        fc.constant([base()]),
      )
      .map((v) => as('not a resource', v)),
    fc
      .constantFrom('{', '{"resourceType":', 'null', '', '[}', `{"resourceType":"${type}",}`)
      .map((text) => ({ why: 'not JSON', text })),
    fc
      .constantFrom('Patient', 'MedicationRequest', 'Task', 'Bundle', 'Nope', '')
      .filter((other) => other !== type)
      .map((other) => {
        const body = base();
        body.resourceType = other;
        return as(`resourceType ${other}`, body);
      }),
    // Issue 43: a string holding what no text may (NUL, a control character, a lone surrogate), and nesting far
    // beyond any real resource (refused before it is parsed).
    fc
      .tuple(fc.constantFrom(...shape.strings), fc.constantFrom('\u0000', 'a\u0007b', '\ud800', 'x\udfff'))
      .map(([path, poison]) => {
        const body = base();
        setPath(body, path, poison);
        return as(`${path.join('.')} with unsafe characters`, body);
      }),
    fc.integer({ min: 65, max: 20_000 }).map((depth) => {
      const text = JSON.stringify(base()).replace(/\}$/, `,"extension":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      return { why: `nested ${depth} deep`, text };
    }),
    fc.integer({ min: 1_100_000, max: 1_300_000 }).map((size) => {
      const body = base();
      body.text = { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${'a'.repeat(size)}</div>` };
      return as('over the body limit', body);
    }),
  );
}

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  const main = await mainTenantPharmacy(t, PUBLIC_URL);
  token = main.token;
  const rx = main.prescription;
  valid.Patient = patient(rx.practiceId, 'bad-p');
  valid.MedicationRequest = medicationRequest(rx.npi, 'bad-m', rx.patientId);
  valid.Communication = communication('bad-c', rx.patientId);
  valid.Task = task('bad-t', 'prior-authorization', rx.id, {
    input: [input('pa-status', { valueCode: 'PRIOR_AUTH_REQUIRED' })],
  });
});
afterAll(() => t.close());

describe('FHIR bad resources', () => {
  it.each(Object.keys(SHAPES) as TypeName[])(
    '%s: every generated bad resource is refused as an OperationOutcome and writes nothing',
    async (type) => {
      const before = await countFhirRows(t);
      const statuses = new Map<number, number>();
      let cases = 0;
      await fc.assert(
        fc.asyncProperty(badResource(type), fc.boolean(), async ({ why, text }, conditional) => {
          cases += 1;
          const res = await t.app.inject({
            method: conditional ? 'PUT' : 'POST',
            url: `/fhir/R4/${type}${conditional ? `?identifier=${encodeURIComponent(`urn:pharmacy:any|bad-${type}`)}` : ''}`,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
            payload: text,
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          expect([400, 413, 422], `${why}: ${res.statusCode} ${res.body.slice(0, 300)}`).toContain(res.statusCode);
          expect(res.headers['content-type']).toContain('application/fhir+json');
          const outcome = res.json();
          expect(outcome.resourceType).toBe('OperationOutcome');
          expect(outcome.issue[0].diagnostics).not.toMatch(/at \w+ \(|node_modules|postgres|drizzle/i);
        }),
        { numRuns: RUNS },
      );
      expect(await countFhirRows(t)).toEqual(before);
      console.info(
        `FHIR bad resources, ${type}: ${cases} cases, answers ${JSON.stringify(Object.fromEntries(statuses))}, 0 written`,
      );
    },
  );
});

/**
 * Issue 46: a modifier extension (or implicitRules) the server does not understand changes what the resource means,
 * so it is refused with 422 naming where it is, and nothing is written; an ordinary extension is not a reason to
 * refuse. Every written type, at the root and in a backbone element where the type has one.
 */
describe('FHIR modifier extensions', () => {
  const modifier = [{ url: 'https://pharmacy.example/fhir/StructureDefinition/do-not-fill', valueBoolean: true }];
  const NESTED: Partial<Record<TypeName, { element: string; path: string }>> = {
    Task: { element: 'input', path: 'Task.input[0].modifierExtension[0]' },
    Communication: { element: 'payload', path: 'Communication.payload[0].modifierExtension[0]' },
  };
  it.each(Object.keys(SHAPES) as TypeName[])('%s: refused 422 wherever it is, nothing written', async (type) => {
    const before = await countFhirRows(t);
    const cases: { why: string; body: Record<string, unknown>; path: string }[] = [
      {
        why: 'at the root',
        body: { ...clone(valid[type] as Record<string, unknown>), modifierExtension: modifier },
        path: `${type}.modifierExtension[0]`,
      },
      {
        why: 'implicitRules',
        body: { ...clone(valid[type] as Record<string, unknown>), implicitRules: 'https://pharmacy.example/rules' },
        path: `${type}.implicitRules`,
      },
    ];
    const nested = NESTED[type];
    if (nested) {
      const body = clone(valid[type] as Record<string, unknown>);
      (body[nested.element] as Record<string, unknown>[])[0] = {
        ...(body[nested.element] as Record<string, unknown>[])[0],
        modifierExtension: modifier,
      };
      cases.push({ why: `in ${nested.element}`, body, path: nested.path });
    }
    for (const { why, body, path } of cases) {
      for (const conditional of [false, true]) {
        const res = await t.app.inject({
          method: conditional ? 'PUT' : 'POST',
          url: `/fhir/R4/${type}${conditional ? `?identifier=${encodeURIComponent(`urn:pharmacy:any|mod-${type}`)}` : ''}`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
          payload: body,
        });
        expect(res.statusCode, `${why}: ${res.body.slice(0, 300)}`).toBe(422);
        const issue = res.json().issue[0];
        expect(issue.code).toBe('not-supported');
        expect(issue.expression).toEqual([path]);
      }
    }
    expect(await countFhirRows(t)).toEqual(before);
  });

  it('accepts an ordinary extension it does not know', async () => {
    const body = clone(valid.Patient as Record<string, unknown>);
    body.identifier = [{ system: 'urn:pharmacy:patient', value: 'ext-ok' }];
    body.extension = [{ url: 'https://pharmacy.example/fhir/StructureDefinition/loyalty-tier', valueString: 'gold' }];
    const res = await t.app.inject({
      method: 'POST',
      url: '/fhir/R4/Patient',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
      payload: body,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  });
});

/**
 * Issue 43: every search parameter the CapabilityStatement declares (and an undeclared one), for every type with a
 * search, given hostile values: NUL and other control characters, a lone surrogate (invalid UTF-8 once encoded),
 * text-direction characters, days that do not exist, values past their limits, and a parameter repeated. Each is
 * answered 200 or 400 as FHIR JSON, never 5xx. Read from /metadata, so a parameter declared tomorrow is covered.
 */
describe('FHIR hostile searches', () => {
  const HOSTILE_VALUES = [
    '%00',
    'a%00b|x',
    '%00%7C%00',
    '%ED%A0%80',
    '%E2%80%AE',
    '%07',
    'x%0D%0Ay',
    'ge2026-02-30',
    '2026-13-01',
    'ge0000-01-01',
    'lt2026-01-15T24:00Z',
    'eq9999-12-31T23:59:59+14:00',
    encodeURIComponent('|'),
    encodeURIComponent('urn:x|'),
    'x'.repeat(5_000),
    '-1',
    '1e309',
    'Organization/%00',
    encodeURIComponent('Organization/../../etc/passwd'),
    '%',
  ];
  it('answers every declared search parameter with hostile values 200 or 400, never 5xx', async () => {
    const metadata = await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata' });
    const resources = metadata.json().rest[0].resource as { type: string; searchParam?: { name: string }[] }[];
    const searchable = resources.filter((r) => r.searchParam?.length);
    expect(searchable.length).toBeGreaterThanOrEqual(6);
    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    let cases = 0;
    for (const { type, searchParam } of searchable) {
      for (const name of [...(searchParam ?? []).map((p) => p.name), 'notAParameter']) {
        for (const value of HOSTILE_VALUES) {
          for (const query of [`${name}=${value}`, `${name}=${value}&${name}=${value}`]) {
            cases += 1;
            const res = await t.app.inject({
              method: 'GET',
              url: `/fhir/R4/${type}?${query}`,
              headers: { authorization: `Bearer ${token}` },
            });
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            const json = String(res.headers['content-type']).includes('application/fhir+json');
            if (![200, 400].includes(res.statusCode) || !json) wrong.push(`${type}?${query.slice(0, 80)} -> ${res.statusCode}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    console.info(`FHIR hostile searches: ${cases} cases, answers ${JSON.stringify(Object.fromEntries(statuses))}`);
  });
});
