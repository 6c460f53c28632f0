/**
 * Hostile input stops at the door (issue 43, first part): the 500s and the hang an outsider found, as cases
 * generated from the route table where they can be (every string of every write route's valid body), each
 * answered 4xx in the route's error shape with nothing written.
 *
 * Prints "input safety: N cases, 0 answered 5xx".
 */

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { TEXT_SAFETY_MESSAGES, type Tokens } from '@hcp/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { TOO_DEEP_MESSAGE } from '../src/plugins/input-safety.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { communication, countFhirRows, medicationRequest, patient, systemToken } from './support/fhir.ts';
import { type Fixture, HOME, officeBody, ROWS, setUpRouteTable, type Who } from './support/route-table.ts';

const PUBLIC_URL = 'https://portal.test';
let t: TestApp;
let tokens: Record<Who, Tokens>;
let fixture: Fixture;
let fhirBearer: string;
const tally = { cases: 0, fiveHundreds: 0 };

beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW, env: { PUBLIC_URL, REQUEST_TIMEOUT_MS: '500' } });
  ({ tokens, fixture } = await setUpRouteTable(t));
  const [tenant] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.key, 'main'));
  fhirBearer = (await systemToken(t, { tenantId: tenant?.id as string, scopes: ['system/*.*'], publicUrl: PUBLIC_URL })).token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  process.stdout.write(`\ninput safety: ${tally.cases} cases, ${tally.fiveHundreds} answered 5xx\n`);
  await t.close();
});

const count = (status: number) => {
  tally.cases += 1;
  if (status >= 500) tally.fiveHundreds += 1;
};

/** Every string of a JSON value, by path, so each can be poisoned in turn. */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}
function poisoned(body: unknown, path: (string | number)[], poison: (s: string) => string): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  node[last] = poison(String(node[last]));
  return copy;
}

const POISONS: Record<string, (s: string) => string> = {
  NUL: (v) => `${v}\u0000`,
  'a control character': (v) => `\u0007${v}`,
  'a lone surrogate': (v) => `${v}\ud800`,
};

describe('hostile text, deep JSON, long names and slow bodies', () => {
  it('refuses NUL, control characters and lone surrogates in every string of every write route, naming the field', async () => {
    const wrong: string[] = [];
    for (const row of ROWS.filter((r) => r.body)) {
      const who: Who = row.path.includes('md-offices') || row.path.includes('accounts') ? 'admin' : 'prescriber';
      const ids = fixture.ids[HOME[who]];
      const body = row.body?.(fixture, who, ids);
      for (const path of stringPaths(body)) {
        for (const [name, poison] of Object.entries(POISONS)) {
          await row.prepare?.(ids, t.database.db);
          const res = await injectAs(t.app, tokens[who], {
            method: row.method,
            url: row.url(fixture, who, ids),
            payload: poisoned(body, path, poison) as object,
          });
          count(res.statusCode);
          const detail = res.json().error?.details?.[0];
          if (
            res.statusCode !== 400 ||
            detail?.path !== ['body', ...path].join('.') ||
            detail?.message !== TEXT_SAFETY_MESSAGES.unsafe
          ) {
            wrong.push(`${row.method} ${row.path} ${path.join('.')} with ${name}: ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses NUL in search text and path ids, and in a FHIR search, each in its own error shape', async () => {
    const me = tokens.prescriber.userID;
    for (const [who, url] of [
      ['prescriber', '/api/mdo/v1/drug-catalogue?searchText=ab%00c'],
      ['admin', '/api/mdo/v1/md-offices-search?searchText=%00'],
      ['admin', '/api/mdo/v1/staff?searchText=a%00'],
      ['prescriber', `/api/mdo/v1/users/${me}/patients-search?lastName=%00`],
      ['prescriber', `/api/mdo/v1/users/${me}/patients/%00`],
    ] as const) {
      const res = await injectAs(t.app, tokens[who], { method: 'GET', url });
      count(res.statusCode);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.message).toBe(TEXT_SAFETY_MESSAGES.unsafe);
    }
    const fhir = await t.app.inject({
      method: 'GET',
      url: '/fhir/R4/Patient?identifier=%00|x',
      headers: { authorization: `Bearer ${fhirBearer}` },
    });
    count(fhir.statusCode);
    expect(fhir.statusCode).toBe(400);
    expect(fhir.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'invalid' }] });
  });

  it('refuses JSON nested 10,000 deep before parsing it, on a portal route and a FHIR write', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const draft = `{"draft":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`;
    const portal = await injectAs(t.app, tokens.prescriber, {
      method: 'PUT',
      url: `/api/mdo/v1/users/${tokens.prescriber.userID}/prescription-draft`,
      headers: { 'content-type': 'application/json' },
      payload: draft,
    });
    count(portal.statusCode);
    expect(portal.statusCode).toBe(400);
    expect(portal.json().error.message).toBe(TOO_DEEP_MESSAGE);
    const bundle = `{"resourceType":"Bundle","type":"transaction","entry":${deep}}`;
    const fhir = await t.app.inject({
      method: 'POST',
      url: '/fhir/R4',
      headers: { authorization: `Bearer ${fhirBearer}`, 'content-type': 'application/fhir+json' },
      payload: bundle,
    });
    count(fhir.statusCode);
    expect(fhir.statusCode).toBe(400);
    expect(fhir.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ code: 'invalid', diagnostics: TOO_DEEP_MESSAGE }],
    });
    // A string full of brackets is text, not depth.
    const text = await injectAs(t.app, tokens.prescriber, {
      method: 'PUT',
      url: `/api/mdo/v1/users/${tokens.prescriber.userID}/prescription-draft`,
      payload: { draft: { sig: `[{${'['.repeat(200)}` } },
    });
    expect(text.statusCode).toBe(200);
  });

  it('limits person names and keeps line breaks and text-direction characters out of practice names', async () => {
    const me = tokens.prescriber.userID;
    const long = await injectAs(t.app, tokens.prescriber, {
      method: 'POST',
      url: `/api/mdo/v1/users/${me}/preferences`,
      payload: {
        userName: `Alex ${'a'.repeat(900_000)}`,
        phoneNumber: '',
        skipPriorAuthDismissNotice: false,
        skipErxConfirmation: true,
      },
    });
    count(long.statusCode);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details).toEqual([{ path: 'body.userName', message: 'Keep the name under 100 characters.' }]);
    for (const name of ['Lake Clinic\r\nBcc: x@example.com', 'Lake \u202eciniLC', 'Lake\tClinic']) {
      const res = await injectAs(t.app, tokens.admin, {
        method: 'POST',
        url: '/api/mdo/v1/md-offices',
        payload: officeBody(name),
      });
      count(res.statusCode);
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().error.details).toEqual([{ path: 'body.name', message: TEXT_SAFETY_MESSAGES.singleLine }]);
    }
  });

  it('refuses a day that does not exist in every FHIR date it reads and in _lastUpdated, writing nothing', async () => {
    const [rx] = await t.database.db
      .execute(sql`select rx.patient_id, rx.md_office_id, st.npi from prescriptions rx
        join md_staff st on st.id = rx.prescriber_id join md_offices o on o.id = rx.md_office_id
        join tenants tn on tn.id = o.tenant_id where tn.key = 'main' and st.npi is not null limit 1`)
      .then((r) => (r as unknown as { rows: Record<string, string>[] }).rows);
    const fhir = (method: string, url: string, payload?: unknown) =>
      t.app.inject({
        method: method as 'GET',
        url: `/fhir/R4${url}`,
        headers: { authorization: `Bearer ${fhirBearer}`, 'content-type': 'application/fhir+json' },
        ...(payload ? { payload: payload as object } : {}),
      });
    const before = await countFhirRows(t);
    const writes = [
      ['Patient.birthDate', '/Patient', patient(rx?.md_office_id as string, 'day-p', { birthDate: '2026-02-30' })],
      [
        'MedicationRequest.authoredOn',
        '/MedicationRequest',
        medicationRequest(rx?.npi as string, 'day-m', rx?.patient_id as string, { authoredOn: '2026-02-30' }),
      ],
      [
        'MedicationRequest.authoredOn',
        '/MedicationRequest',
        medicationRequest(rx?.npi as string, 'day-m2', rx?.patient_id as string, { authoredOn: '2026-02-30T10:00:00Z' }),
      ],
      ['Communication.sent', '/Communication', communication('day-c', rx?.patient_id as string, { sent: '2026-02-30' })],
      [
        'Communication.sent',
        '/Communication',
        communication('day-c2', rx?.patient_id as string, { sent: '2026-01-15T24:00:00Z' }),
      ],
    ] as const;
    for (const [element, url, resource] of writes) {
      const res = await fhir('POST', url, resource);
      count(res.statusCode);
      expect(res.statusCode, `${element} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'invalid', expression: [element] }] });
    }
    expect(await countFhirRows(t)).toEqual(before);
    for (const value of [
      '2026-02-30',
      'ge0000-01-01',
      'lt2026-13-01',
      'ge2026-01-15T24:00Z',
      'ne2026-01-01',
      'ge2026-01-01T10:00:00+15:00',
    ]) {
      const res = await fhir('GET', `/Patient?_lastUpdated=${encodeURIComponent(value)}`);
      count(res.statusCode);
      expect(res.statusCode, `${value} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ code: 'invalid', expression: ['_lastUpdated'] }],
      });
    }
    // What does exist still searches, at every precision FHIR gives a date (the year 1 included).
    for (const value of [
      'ge0001-01-01',
      '2024-02-29',
      'lt2026',
      'ge2026-11',
      'ge2026-01-15T10:00Z',
      'le2026-01-15T10:00:00.5-05:00',
    ]) {
      const res = await fhir('GET', `/Patient?_lastUpdated=${encodeURIComponent(value)}&_count=1`);
      count(res.statusCode);
      expect(res.statusCode, `${value} ${res.body}`).toBe(200);
    }
  });

  it('refuses every malformed multipart upload with a 4xx in the error shape, keeping no file', async () => {
    const auth = await injectAs(t.app, tokens.prescriber, {
      method: 'POST',
      url: `/api/mdo/v1/users/${tokens.prescriber.userID}/appeal-auth`,
      payload: { prescriptionId: fixture.ownAppealRx },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const { token, appeal } = auth.json() as { token: string; appeal: { id: string } };
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 0x20)]);
    const part = (boundary: string, disposition: string, content: Buffer = pdf) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/pdf\r\n\r\n`),
        content,
        Buffer.from('\r\n'),
      ]);
    const file = 'form-data; name="otherFile"; filename="a.pdf"';
    const close = (boundary: string) => Buffer.from(`--${boundary}--\r\n`);
    const CASES: [string, string, Buffer][] = [
      ['no boundary', 'multipart/form-data', Buffer.concat([part('b1', file), close('b1')])],
      ['an empty boundary', 'multipart/form-data; boundary=', Buffer.concat([part('b1', file), close('b1')])],
      ['another boundary in the body', 'multipart/form-data; boundary=b2', Buffer.concat([part('b1', file), close('b1')])],
      ['no closing boundary', 'multipart/form-data; boundary=b1', part('b1', file)],
      ['a cut-off part', 'multipart/form-data; boundary=b1', part('b1', file).subarray(0, 60)],
      ['an empty body', 'multipart/form-data; boundary=b1', Buffer.alloc(0)],
      ['no part headers', 'multipart/form-data; boundary=b1', Buffer.from('--b1\r\n%PDF-1.7\r\n--b1--\r\n')],
      [
        'a part without a name',
        'multipart/form-data; boundary=b1',
        Buffer.concat([part('b1', 'form-data; filename="a.pdf"'), close('b1')]),
      ],
      [
        'a boundary over 70 characters',
        `multipart/form-data; boundary=${'b'.repeat(200)}`,
        Buffer.concat([part('b'.repeat(200), file), close('b'.repeat(200))]),
      ],
      [
        'NUL in an encoded file name',
        'multipart/form-data; boundary=b1',
        Buffer.concat([part('b1', `form-data; name="otherFile"; filename*=UTF-8''a%00b.pdf`), close('b1')]),
      ],
      [
        'NUL in a file name',
        'multipart/form-data; boundary=b1',
        Buffer.concat([part('b1', 'form-data; name="otherFile"; filename="a\u0000b.pdf"'), close('b1')]),
      ],
      [
        'a field that is not a file',
        'multipart/form-data; boundary=b1',
        Buffer.concat([Buffer.from('--b1\r\nContent-Disposition: form-data; name="x"\r\n\r\nhello\r\n'), close('b1')]),
      ],
    ];
    const filesBefore = await t.database.db.select({ id: s.appealFiles.id }).from(s.appealFiles);
    const wrong: string[] = [];
    for (const [why, contentType, payload] of CASES) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/mdo/v1/appeal/${appeal.id}/file-upload`,
        headers: { 'content-type': contentType, 'x-appeal-token': token },
        payload,
      });
      count(res.statusCode);
      const body = res.json() as { error?: { code?: string; message?: string } };
      if (res.statusCode < 400 || res.statusCode >= 500 || !body.error?.code || !body.error.message) {
        wrong.push(`${why}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await t.database.db.select({ id: s.appealFiles.id }).from(s.appealFiles)).toEqual(filesBefore);
  });

  it('answers a body that never finishes with 408 and closes its socket, on every write route at once', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    /** Sends the head and the first 11 bytes of a 100,000-byte body, then nothing; resolves with what came back. */
    const stall = (method: string, url: string, headers: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString();
        });
        // The server decides when (REQUEST_TIMEOUT_MS is 500 here); the test waits for the close itself.
        socket.on('close', () => resolve(answer));
        const head = Object.entries({
          ...headers,
          host: '127.0.0.1',
          'content-type': 'application/json',
          'content-length': '100000',
        })
          .map(([k, v]) => `${k}: ${v}`)
          .join('\r\n');
        socket.write(`${method} ${url} HTTP/1.1\r\n${head}\r\n\r\n{"email":"a`);
      });
    const writes = ROWS.filter((r) => r.body && r.method !== 'GET');
    const stalled = await Promise.all([
      stall('POST', '/auth-service/login', {}),
      ...writes.map((row) => {
        const who: Who = row.path.includes('md-offices') || row.path.includes('accounts') ? 'admin' : 'prescriber';
        return stall(row.method, row.url(fixture, who, fixture.ids[HOME[who]]), {
          authorization: `Bearer ${tokens[who].accessToken}`,
          'x-user-id': tokens[who].userID,
        });
      }),
    ]);
    for (const answer of stalled) count(Number(answer.slice(9, 12)));
    expect(writes.length).toBeGreaterThan(30);
    // 408 once the time-out passes; 413 at once where the declared length is past the route's own body limit. Either
    // way the socket is closed (each promise resolved on its close).
    expect(stalled.filter((answer) => !/^HTTP\/1\.1 (408|413)/.test(answer))).toEqual([]);
    expect(stalled.filter((answer) => answer.startsWith('HTTP/1.1 408')).length).toBeGreaterThan(30);
  });
});
