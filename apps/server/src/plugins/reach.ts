/**
 * Reach by construction (issue 42; docs/decisions/0048-reach-by-construction.md). Two guards on every route, both
 * derived from the route's own schemas when it is registered, so a new route is covered the day it is written:
 *
 * 1. Access-granting fields (before validation, on the raw body): a field of ACCESS_GRANTING_FIELDS that the
 *    route's schema does not accept answers 400 naming it. Zod would strip it silently; a later reader could then
 *    trust a value nobody checked. Only the owner routes (ACCESS_GRANTING_OWNERS) accept them.
 * 2. References (after validation, before the use case): every id the contract declares as naming a record
 *    (path, query, body, nested arrays) is resolved through its kind's one reach check (lib/reach/resolvers.ts),
 *    and declared pairs are checked (a prescription of that patient, an HCP of that practice). Anything outside
 *    the caller's reach answers the plain 404 of its kind, audited, and the use case never runs. What was
 *    resolved is on `request.reach` for the use case.
 *
 * Routes that carry a credential of their own instead of a session (an appeal token, a signed file link) resolve
 * their one record through it in the feature; the guard checks the session routes.
 */
import { ACCESS_GRANTING_FIELDS, REFERENCE_NOT_FOUND, type ReferenceKind } from '@hcp/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { writeAudit } from '../lib/audit.ts';
import { AppError } from '../lib/errors.ts';
import {
  type InputLocation,
  inputJsonSchema,
  propertyPathsIn,
  type ReferencePath,
  referencesIn,
  valuesAt,
} from '../lib/reach/reference-paths.ts';
import { RESOLVERS, type Reached, wellFormed } from '../lib/reach/resolvers.ts';

/** What the guard knows of a route, read from its schemas once. */
export interface RoutePlan {
  method: string;
  url: string;
  references: ReferencePath[];
  /** Property paths the body schema accepts ('staff.role', 'items.[].id'); null when the route takes no JSON body. */
  accepted: Set<string> | null;
  /** The input schemas as JSON Schema (the declaration tests read every field of them). */
  inputs: Partial<Record<InputLocation, Record<string, unknown>>>;
}

export type ReachedRecords = Map<ReferenceKind, Map<string, Reached>>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The records the request's references named, each within the caller's reach (set by the reach guard). */
    reach: ReachedRecords | null;
  }
  interface FastifyInstance {
    /** Every route's plan (the tests generate their cells from it). */
    routePlans: () => RoutePlan[];
  }
}

const GRANTING = new Set<string>(ACCESS_GRANTING_FIELDS);
/** The raw body is walked this deep for granting fields; deeper input is refused by the body checks anyway. */
const MAX_WALK_DEPTH = 64;

const planKey = (method: string, url: string) => `${method} ${url}`;
/** How an id is compared: uuids without regard to case, a decision's request id exactly. */
const keyOf = (kind: ReferenceKind, id: string) => (kind === 'decision' ? id : id.toLowerCase());

/**
 * Granting fields in a raw body: `path` as the error names it ('body.items.0.role'), `shape` as a schema declares
 * it ('items.[].role'). Iterative: a hostile body cannot overflow the stack here.
 */
export function grantingFieldsIn(body: unknown): { field: string; path: string; shape: string }[] {
  const found: { field: string; path: string; shape: string }[] = [];
  const stack: { value: unknown; path: string[]; shape: string[] }[] = [{ value: body, path: [], shape: [] }];
  while (stack.length > 0) {
    const { value, path, shape } = stack.pop() as (typeof stack)[number];
    if (!value || typeof value !== 'object' || path.length > MAX_WALK_DEPTH) continue;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) stack.push({ value: item, path: [...path, String(i)], shape: [...shape, '[]'] });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      if (GRANTING.has(key)) found.push({ field: key, path: ['body', ...path, key].join('.'), shape: [...shape, key].join('.') });
      stack.push({ value: child, path: [...path, key], shape: [...shape, key] });
    }
  }
  return found;
}

export function registerReachGuard(app: FastifyInstance, deps: { db: Database }): void {
  const plans = new Map<string, RoutePlan>();
  app.decorateRequest('reach', null);
  app.decorate('routePlans', () => [...plans.values()]);

  app.addHook('onRoute', (route) => {
    const schema = route.schema as Partial<Record<InputLocation, unknown>> | undefined;
    if (!schema) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const references: ReferencePath[] = [];
    const inputs: RoutePlan['inputs'] = {};
    for (const location of ['params', 'querystring', 'body'] as const) {
      const json = inputJsonSchema(schema[location]);
      if (!json) continue;
      inputs[location] = json;
      references.push(...referencesIn(json, location));
    }
    const body = inputs.body;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      plans.set(planKey(method, route.url), {
        method,
        url: route.url,
        references,
        accepted: body ? propertyPathsIn(body) : null,
        inputs,
      });
    }
  });

  const planOf = (request: FastifyRequest) => plans.get(planKey(request.method, request.routeOptions.url ?? ''));

  app.addHook('preValidation', async (request) => {
    if (!request.body || typeof request.body !== 'object' || Buffer.isBuffer(request.body)) return;
    // The portal's own API; the pharmacy systems' protocols (/fhir, /oauth2) have their own shapes and owners.
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/auth')) return;
    const plan = planOf(request);
    if (!plan) return;
    const accepted = plan.accepted ?? new Set<string>();
    const refused = grantingFieldsIn(request.body).filter((f) => !accepted.has(f.shape));
    if (refused.length === 0) return;
    if (request.auth) {
      await writeAudit(deps.db, {
        actorUserId: request.auth.userId,
        action: 'access.field.refused',
        entityType: 'route',
        entityId: null,
        requestId: request.id,
        ip: request.ip ?? null,
        details: { route: `${request.method} ${request.routeOptions.url}`, fields: refused.map((f) => f.path) },
      });
    }
    throw new AppError(
      'VALIDATION_FAILED',
      `${refused[0]?.field} cannot be set here.`,
      refused.map((f) => ({ path: f.path, message: `${f.field} cannot be set here.` })),
    );
  });

  app.addHook('preHandler', async (request) => {
    const plan = planOf(request);
    if (!plan || plan.references.length === 0 || !request.auth) return;
    const caller = { userId: request.auth.userId, familyId: request.auth.familyId };
    const sources: Record<InputLocation, unknown> = { params: request.params, querystring: request.query, body: request.body };
    const wanted = new Map<ReferenceKind, Set<string>>();
    const pairs: { kind: ReferenceKind; id: string; parentKind: ReferenceKind; parentId: string; field: string }[] = [];
    const fieldOf = new Map<string, string>();
    for (const reference of plan.references) {
      for (const { value, holder } of valuesAt(sources[reference.location], reference.path)) {
        if (typeof value !== 'string' || value === '') continue;
        const ids = wanted.get(reference.kind) ?? new Set<string>();
        ids.add(value);
        wanted.set(reference.kind, ids);
        fieldOf.set(`${reference.kind}:${value}`, `${reference.location}.${reference.path.join('.')}`);
        const parentValue = reference.of && holder ? holder[reference.of] : undefined;
        const parent = plan.references.find(
          (r) =>
            r.location === reference.location &&
            r.path.length === reference.path.length &&
            r.path.at(-1) === reference.of &&
            r.path.slice(0, -1).join('.') === reference.path.slice(0, -1).join('.'),
        );
        if (parent && typeof parentValue === 'string' && parentValue !== '') {
          pairs.push({
            kind: reference.kind,
            id: value,
            parentKind: parent.kind,
            parentId: parentValue,
            field: reference.path.join('.'),
          });
        }
      }
    }
    if (wanted.size === 0) return;
    const resolved: ReachedRecords = new Map();
    for (const [kind, ids] of wanted) {
      const candidates = [...ids].filter((id) => wellFormed(kind, id));
      const found = candidates.length > 0 ? await RESOLVERS[kind](deps.db, caller, candidates) : [];
      // PostgreSQL answers uuids in lower case; a caller may send them in upper case (zod accepts both).
      const byKey = new Map(found.map((r) => [keyOf(kind, r.id), r]));
      const byId = new Map<string, Reached>();
      for (const id of ids) {
        const record = byKey.get(keyOf(kind, id));
        if (!record) await refuse(request, kind, fieldOf.get(`${kind}:${id}`) ?? kind, id);
        else byId.set(id, record);
      }
      resolved.set(kind, byId);
    }
    for (const pair of pairs) {
      const owners = resolved.get(pair.kind)?.get(pair.id)?.owners[pair.parentKind] ?? [];
      if (!owners.some((owner) => owner.toLowerCase() === pair.parentId.toLowerCase())) {
        await refuse(request, pair.kind, pair.field, pair.id);
      }
    }
    request.reach = resolved;
  });

  /** 404 of the kind, never 403: the caller learns nothing of the record. The attempt is audited (ids only). */
  async function refuse(request: FastifyRequest, kind: ReferenceKind, field: string, id: string): Promise<never> {
    await writeAudit(deps.db, {
      actorUserId: request.auth?.userId ?? null,
      action: 'reach.refused',
      entityType: kind,
      entityId: null,
      requestId: request.id,
      ip: request.ip ?? null,
      details: { route: `${request.method} ${request.routeOptions.url}`, field, id },
    });
    throw new AppError('NOT_FOUND', REFERENCE_NOT_FOUND[kind]);
  }
}

/** The records the reach guard resolved for this request, of one kind (the use case's input, not the raw ids). */
export function reachedOf(request: FastifyRequest, kind: ReferenceKind): Map<string, Reached> {
  return request.reach?.get(kind) ?? new Map();
}
