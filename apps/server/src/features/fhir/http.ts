/** What every FHIR route shares: the media type, the system-token guard, search parameters and searchset Bundles. */
import { parseFhirDate, scopeCovers } from '@hcp/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { SystemClaims, SystemTokens } from '../../lib/system-tokens.ts';
import { parseToken } from './mapping/common.ts';
import { FhirError } from './outcome.ts';
import type { RecordFilter } from './records-repository.ts';
import { SEARCH_PARAMS, type SearchableType, type SearchParam, searchedId } from './search-params.ts';

export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    system: SystemClaims | null;
  }
}

const oneOrMany = z.union([z.string().max(300), z.array(z.string().max(300)).max(4)]);
export const searchQuery = z.object({
  _id: z.string().max(2_000).optional(),
  identifier: z.string().max(600).optional(),
  _lastUpdated: oneOrMany.optional(),
  status: z.string().max(300).optional(),
  patient: z.string().max(300).optional(),
  subject: z.string().max(300).optional(),
  focus: z.string().max(300).optional(),
  owner: z.string().max(300).optional(),
  name: z.string().max(200).optional(),
  birthdate: oneOrMany.optional(),
  _count: z.coerce.number().int().min(1).max(100).default(20),
  _offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
export type SearchQuery = z.infer<typeof searchQuery>;
export const idParams = z.object({ id: z.string().max(64) });

export interface FhirContext {
  db: Database;
  tokens: SystemTokens;
  base: (request: FastifyRequest) => string;
}

/** The scopes must cover `system/<type>.<access>`, or 403. */
export function assertScope(claims: SystemClaims, type: string, access: 'read' | 'write') {
  const wanted = `system/${type}.${access}`;
  if (!claims.scopes.some((granted) => scopeCovers(granted, wanted))) {
    throw new FhirError(403, 'forbidden', `The token's scopes do not include ${wanted}.`);
  }
}

/**
 * A system token (user sessions never pass: another audience), and when a type is named, scopes covering
 * `system/<type>.<access>`; a transaction Bundle checks each entry's type itself.
 */
export const requireScope =
  (tokens: SystemTokens, type: string | null, access: 'read' | 'write') => async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const claims =
      typeof header === 'string' && header.startsWith('Bearer ') ? await tokens.verify(header.slice(7).trim()) : null;
    if (!claims) throw new FhirError(401, 'login', 'A valid system access token is required (SMART Backend Services).');
    if (type) assertScope(claims, type, access);
    request.system = claims;
  };

export const systemOf = (request: FastifyRequest) => request.system as SystemClaims;

/** A FHIR read or search, audited with the client (actor: none; a system, not a person). */
export const auditRead = (
  db: Database,
  request: FastifyRequest,
  action: string,
  entityType: string,
  entityId: string | null,
  details = {},
) =>
  writeAudit(db, {
    actorUserId: null,
    action,
    entityType,
    entityId,
    requestId: request.id,
    ip: request.ip ?? null,
    details: { clientId: systemOf(request).clientId, ...details },
  });

export const send = (reply: FastifyReply, body: unknown) => reply.type(FHIR_JSON).send(body);

export function searchset(
  /** The query's parameters the search applied (search-params.ts `appliedParams`). */
  applied: URLSearchParams,
  base: string,
  type: SearchableType,
  resources: { id?: string }[],
  total: number,
  page: { count: number; offset: number },
) {
  // Only what the search applied: a parameter it left out is not in the link that says what was searched.
  const url = (offset: number) => {
    const params = new URLSearchParams(applied);
    params.set('_count', String(page.count));
    params.set('_offset', String(offset));
    return `${base}/${type}?${params}`;
  };
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total,
    link: [
      { relation: 'self', url: url(page.offset) },
      ...(page.offset + page.count < total ? [{ relation: 'next', url: url(page.offset + page.count) }] : []),
    ],
    entry: resources.map((resource) => ({
      fullUrl: `${base}/${type}/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
}

const DATE_PARAM = /^(eq|ge|gt|le|lt)?(.*)$/s;

/** identifier, _lastUpdated and status of a search as the repository's filter, or a 400 naming the parameter. */
/** The `_lastUpdated` or `birthdate` values as the ranges they name (prefix ge/gt/le/lt/eq, FHIR's precisions). */
function dateRanges(name: string, values: string | string[]): { op: 'ge' | 'lt'; at: Date }[] {
  return (Array.isArray(values) ? values : [values]).flatMap((value) => {
    const match = DATE_PARAM.exec(value);
    // A date names the range its precision covers (a year, a month, a day, a minute, a second, a millisecond);
    // the contract's calendar rule refuses a day that does not exist rather than rolling it over.
    const range = match ? parseFhirDate(match[2] as string, 'search') : null;
    if (!match || !range) {
      throw new FhirError(400, 'invalid', `${name} must be a date that exists, with an optional prefix (ge2026-11-01).`, [name]);
    }
    const { start, end } = range;
    switch (match[1] ?? 'eq') {
      case 'ge':
        return [{ op: 'ge' as const, at: start }];
      case 'gt':
        return [{ op: 'ge' as const, at: end }];
      case 'le':
        return [{ op: 'lt' as const, at: end }];
      case 'lt':
        return [{ op: 'lt' as const, at: start }];
      default:
        return [
          { op: 'ge' as const, at: start },
          { op: 'lt' as const, at: end },
        ];
    }
  });
}

/**
 * The filter of a search over a written type, from the parameters it applies (search-params.ts): one it does not
 * support is not applied even when the query schema knows its name from another type.
 */
export function recordFilter(
  applied: URLSearchParams,
  type: SearchableType,
  query: SearchQuery,
  statuses: readonly string[] | null,
): RecordFilter {
  const uses = (name: string) => applied.has(name);
  const spec = (name: string) => SEARCH_PARAMS[type].find((p: SearchParam) => p.name === name) as SearchParam;
  const filter: RecordFilter = {};
  if (uses('_id') && query._id !== undefined) filter.ids = query._id.split(',').map((id) => id.trim());
  if (uses('identifier') && query.identifier !== undefined) {
    const token = parseToken(query.identifier);
    if (!token.value) throw new FhirError(400, 'invalid', 'identifier needs a value (system|value).', ['identifier']);
    filter.identifier = token;
  }
  if (uses('_lastUpdated') && query._lastUpdated !== undefined)
    filter.lastUpdated = dateRanges('_lastUpdated', query._lastUpdated);
  if (uses('birthdate') && query.birthdate !== undefined) filter.birthDate = dateRanges('birthdate', query.birthdate);
  if (uses('name') && query.name !== undefined) filter.name = query.name;
  // patient and subject name the same element; both given, both must hold.
  for (const name of ['patient', 'subject'] as const) {
    const value = query[name];
    if (uses(name) && value !== undefined) {
      const id = searchedId(value, name, spec(name).target ?? []);
      filter.patientIds = [...(filter.patientIds ?? []), id];
    }
  }
  if (uses('focus') && query.focus !== undefined) filter.focus = searchedId(query.focus, 'focus', spec('focus').target ?? []);
  if (uses('owner') && query.owner !== undefined) filter.owner = searchedId(query.owner, 'owner', spec('owner').target ?? []);
  if (uses('status') && query.status !== undefined) {
    if (!statuses) throw new FhirError(400, 'not-supported', 'status is not a search parameter of this type.', ['status']);
    const wanted = query.status.split(',');
    if (wanted.some((s) => !statuses.includes(s))) {
      throw new FhirError(400, 'invalid', `status must be among ${statuses.join(', ')}.`, ['status']);
    }
    filter.status = wanted;
  }
  return filter;
}
