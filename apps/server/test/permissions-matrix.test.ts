/**
 * The authorisation suite (issues 9 and 18; decisions 0006, 0010, 0017, 0020): every signed-in API route of the
 * OpenAPI document x every kind of user x ids of their own practice, another practice and another tenant,
 * with the status each cell must answer: reached (any answer but 401/403/404), 403 (seen but not theirs to
 * change: a read-only support window, or staff on a prescriber's decision) or 404 (outside their reach; never
 * 403, so ids cannot be probed). Signed out, and with an integration client's token, every route is 401. A new route without a row fails the suite.
 * `npm run test:authz` runs it alone and prints "N of N cells as expected".
 */
import type { Tokens } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants } from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { systemToken } from './support/fhir.ts';
import {
  type Fixture,
  type Outcome,
  openSupportWindow,
  PUBLIC,
  ROWS,
  setUpRouteTable,
  TARGETS,
  WHO,
  type Who,
} from './support/route-table.ts';

let t: TestApp;
let tokens: Record<Who, Tokens>;
/** A pharmacy system's token with every scope: it reaches /fhir only, never a user route (another audience). */
let systemBearer: string;
let fixture: Fixture;
const PUBLIC_URL = 'https://portal.test';
const tally = { cells: 0, expected: 0 };

beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW, env: { PUBLIC_URL } });
  ({ tokens, fixture } = await setUpRouteTable(t));
  const [tenant] = await t.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.key, 'main'));
  systemBearer = (await systemToken(t, { tenantId: tenant?.id as string, scopes: ['system/*.*'], publicUrl: PUBLIC_URL })).token;
});
afterAll(async () => {
  process.stdout.write(`\nauthorisation matrix: ${tally.expected} of ${tally.cells} cells as expected\n`);
  await t.close();
});

const outcomeOf = (status: number): Outcome | string =>
  status === 403 ? 403 : status === 404 ? 404 : status === 401 ? `401` : 'reached';

describe('authorisation matrix', () => {
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
      const mismatches: string[] = [];
      for (const target of row.targeted ? TARGETS : (['own'] as const)) {
        const ids = fixture.ids[target];
        for (const who of WHO) {
          await row.prepare?.(ids, t.database.db);
          const body = row.body?.(fixture, who, ids);
          const res = await injectAs(t.app, tokens[who], {
            method: row.method,
            url: row.url(fixture, who, ids),
            ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
          });
          const got = outcomeOf(res.statusCode);
          const want = row.expect(who, target);
          tally.cells += 1;
          if (got === want) tally.expected += 1;
          else mismatches.push(`${who} on ${target}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
          await row.prepare?.(ids, t.database.db);
          if (who === 'support' && row.path.endsWith('/support-access') && row.method !== 'GET')
            await openSupportWindow(t, tokens, fixture);
        }
      }
      // Signed out, every one of them is 401.
      const ids = fixture.ids.own;
      const anonymous = await t.app.inject({ method: row.method, url: row.url(fixture, 'prescriber', ids) });
      tally.cells += 1;
      if (anonymous.statusCode === 401) tally.expected += 1;
      else mismatches.push(`signed out: expected 401, got ${anonymous.statusCode}`);
      // An integration client's token (every scope, with a user id beside it) is no session: 401.
      const system = await t.app.inject({
        method: row.method,
        url: row.url(fixture, 'prescriber', ids),
        headers: { authorization: `Bearer ${systemBearer}`, 'x-user-id': tokens.prescriber.userID },
      });
      tally.cells += 1;
      if (system.statusCode === 401) tally.expected += 1;
      else mismatches.push(`integration client: expected 401, got ${system.statusCode}`);
      expect(mismatches).toEqual([]);
    });
  }

  it("answers 404 for another user's id in every per-user route", async () => {
    for (const row of ROWS.filter((r) => r.path.includes('/users/{userId}/'))) {
      const ids = fixture.ids.own;
      const url = row.url(fixture, 'staff', ids);
      const body = row.body?.(fixture, 'staff', ids);
      const res = await injectAs(t.app, tokens.prescriber, {
        method: row.method,
        url,
        ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
      });
      tally.cells += 1;
      if (res.statusCode === 404) tally.expected += 1;
      expect(res.statusCode, `${row.method} ${row.path}`).toBe(404);
    }
  });
});
