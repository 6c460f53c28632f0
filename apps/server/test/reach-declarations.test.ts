/**
 * The declarations the reach guard lives by (issue 42; decision 0048), checked over every route the app has, so a
 * new route is covered the day it is written:
 * - every input field that looks like an id (a uuid, or named id / ...Id / ...Ids) declares the kind of record it
 *   names (`ref(kind, ...)` in the contract), or the guard could not resolve it;
 * - every access-granting field is accepted only by its owner route (ACCESS_GRANTING_OWNERS), and any other
 *   route refuses it with 400 naming it.
 */
import { ACCESS_GRANTING_FIELDS, ACCESS_GRANTING_OWNERS, NOT_A_REFERENCE_KEY, REFERENCE_KEY } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { fieldOfPath } from '../src/lib/reach/reference-paths.ts';
import type { RoutePlan } from '../src/plugins/reach.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let plans: RoutePlan[];
beforeAll(async () => {
  t = await buildTestApp();
  plans = t.app.routePlans();
});
afterAll(async () => t.close());

type Json = Record<string, unknown>;
const ID_NAME = /^(id|.+Id|.+Ids)$/;
/**
 * FHIR's ids are a pharmacy system's own resources, reached through its token's tenant (features/fhir); /oauth2 is
 * the SMART token endpoint (a form of the OAuth protocol, no record ids).
 */
const outOfScope = (plan: RoutePlan) => plan.url.startsWith('/fhir/') || plan.url.startsWith('/oauth2/');
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

/** Fields that look like ids and declare nothing, as 'location.path' strings. */
function undeclaredIds(schema: Json, location: string): string[] {
  const found: string[] = [];
  const walk = (node: Json | undefined, path: string[], name: string | null, declared: boolean) => {
    if (!node || typeof node !== 'object') return;
    // A field that says it names no record of ours, and why (notARecord in the contract).
    if (typeof node[NOT_A_REFERENCE_KEY] === 'string') return;
    const here = declared || typeof node[REFERENCE_KEY] === 'string';
    const looksLikeId =
      node.format === 'uuid' || (name !== null && ID_NAME.test(name) && (node.type === 'string' || node.type === 'array'));
    if (
      looksLikeId &&
      !here &&
      !(node.type === 'array' && typeof (node.items as Json | undefined)?.[REFERENCE_KEY] === 'string')
    ) {
      found.push(`${location}.${path.join('.')}`);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
      for (const b of (node[key] as Json[] | undefined) ?? []) walk(b, path, name, here);
    for (const [child, sub] of Object.entries((node.properties as Record<string, Json>) ?? {}))
      walk(sub, [...path, child], child, false);
    if (node.items && typeof node.items === 'object') walk(node.items as Json, [...path, '[]'], name, here);
  };
  walk(schema, [], null, false);
  return found;
}

describe('reach declarations', () => {
  it('every id-like input field of every route names its kind of record', () => {
    const undeclared = plans
      .filter((plan) => !outOfScope(plan))
      .flatMap((plan) =>
        Object.entries(plan.inputs).flatMap(([location, schema]) =>
          undeclaredIds(schema, location).map((field) => `${plan.method} ${plan.url} ${field}`),
        ),
      );
    expect(undeclared).toEqual([]);
    const declared = plans.reduce((n, plan) => n + plan.references.length, 0);
    process.stdout.write(`\nreach declarations: ${declared} reference fields on ${plans.length} routes, 0 undeclared\n`);
  });

  it('a declaration is found however deep it sits (a fabricated schema with nested and array references)', () => {
    // The walk behind the guard and the test above, on a shape no route has yet.
    const schema = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } } },
        rxId: { type: 'string' },
      },
    };
    expect(undeclaredIds(schema, 'body').sort()).toEqual(['body.items.[].id', 'body.rxId']);
  });

  it('resolves an id sent in upper case as the same record (uuids have no case)', async () => {
    const tokens = await signIn(t.app, 'dr.morgan@demo.hcp');
    const [rx] = await t.database.db
      .select({ id: s.prescriptions.id, patientId: s.prescriptions.patientId })
      .from(s.prescriptions)
      .innerJoin(s.users, eq(s.users.mdOfficeId, s.prescriptions.mdOfficeId))
      .where(eq(s.users.id, tokens.userID))
      .limit(1);
    const res = await injectAs(t.app, tokens, {
      method: 'POST',
      url: `/api/mdo/v1/users/${tokens.userID}/rx-comment`,
      payload: { patientId: rx?.patientId.toUpperCase(), prescriptionId: rx?.id.toUpperCase(), comment: 'Case does not matter.' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('each access-granting field is accepted only by its owner routes', () => {
    const accepting: Record<string, string[]> = {};
    for (const plan of plans.filter((p) => !outOfScope(p) && p.accepted)) {
      const names = new Set([...(plan.accepted ?? [])].map(fieldOfPath));
      const fields = ACCESS_GRANTING_FIELDS.filter((f) => names.has(f));
      if (fields.length > 0) accepting[`${plan.method} ${openApiPath(plan.url)}`] = [...fields].sort();
    }
    const owners = Object.fromEntries(Object.entries(ACCESS_GRANTING_OWNERS).map(([route, o]) => [route, [...o.fields].sort()]));
    expect(accepting).toEqual(owners);
  });

  it('every other route that takes a body refuses each access-granting field with 400 naming it, before anything runs', async () => {
    const tokens = await signIn(t.app, 'admin@demo.hcp');
    let cells = 0;
    const wrong: string[] = [];
    for (const plan of plans.filter((p) => !outOfScope(p) && ['POST', 'PUT', 'PATCH'].includes(p.method))) {
      const url = plan.url.replace(':userId', tokens.userID).replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      for (const field of ACCESS_GRANTING_FIELDS) {
        if (plan.accepted?.has(field)) continue; // its owner (the top-level field): checked by the owner's tests
        const res = await injectAs(t.app, tokens, { method: plan.method as 'POST', url, payload: { [field]: tokens.userID } });
        cells += 1;
        const body = res.json() as { error?: { details?: { path: string }[] } };
        // Signed-in routes check the session first (401 for none); every route with a body answers 400 naming it.
        const named = body.error?.details?.some((d) => d.path === `body.${field}`);
        if (res.statusCode !== 400 || !named)
          wrong.push(`${plan.method} ${plan.url} ${field}: ${res.statusCode} ${res.body.slice(0, 100)}`);
      }
    }
    process.stdout.write(
      `\naccess-granting fields: ${cells - wrong.length} of ${cells} refused with 400 naming the field on routes that do not own them\n`,
    );
    expect(wrong).toEqual([]);
  });
});
