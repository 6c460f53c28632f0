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
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { TOO_DEEP_MESSAGE } from '../src/plugins/input-safety.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { systemToken } from './support/fhir.ts';
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

  it('answers a body that never finishes with 408 and closes its socket once the request time-out has passed', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      'POST /auth-service/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"email":"a',
    );
    // The server decides when (REQUEST_TIMEOUT_MS is 500 here); the test waits for the close itself.
    await closed;
    count(408);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
