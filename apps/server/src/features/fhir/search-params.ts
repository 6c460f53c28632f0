/**
 * The search parameters of each resource type, declared once (issue 46): the CapabilityStatement lists exactly
 * these, the routes parse exactly these, and a search answers with `Bundle.link[self]` naming only the ones it
 * applied. A parameter it does not know is left out of the search (FHIR's default, `handling=lenient`), or refused
 * with 400 when the client asks `Prefer: handling=strict`.
 */
import type { FastifyRequest } from 'fastify';
import { FhirError } from './outcome.ts';

export type SearchParamType = 'token' | 'date' | 'reference' | 'string' | 'number';

export interface SearchParam {
  name: string;
  type: SearchParamType;
  documentation: string;
  /** reference: the resource types it may name. */
  target?: readonly string[];
}

const param = (name: string, type: SearchParamType, documentation: string, target?: readonly string[]): SearchParam => ({
  name,
  type,
  documentation,
  ...(target ? { target } : {}),
});

const PAGING = [
  param('_count', 'number', 'Entries per page, 1 to 100 (20 by default).'),
  param('_offset', 'number', 'Entries to skip: the next page is in Bundle.link[next].'),
];
const ID = param('_id', 'token', 'One id, or several separated by commas.');
const IDENTIFIER = param('identifier', 'token', 'A business identifier, system|value (or a value alone).');
const LAST_UPDATED = param('_lastUpdated', 'date', 'When it last changed, with a prefix (ge, gt, le, lt, eq); may repeat.');
const PATIENT = (path: string) => param('patient', 'reference', `The patient (${path}): Patient/<id>.`, ['Patient']);
const SUBJECT = (path: string) => param('subject', 'reference', `The patient (${path}): Patient/<id>.`, ['Patient']);

export const SEARCH_PARAMS = {
  Organization: [ID, IDENTIFIER, ...PAGING],
  Practitioner: [ID, IDENTIFIER, ...PAGING],
  PractitionerRole: [
    param('organization', 'reference', 'The practice: Organization/<id>.', ['Organization']),
    param('practitioner', 'reference', 'The person: Practitioner/<id>.', ['Practitioner']),
    ...PAGING,
  ],
  Patient: [
    ID,
    IDENTIFIER,
    LAST_UPDATED,
    param('name', 'string', 'The start of a given or family name, in any case.'),
    param('birthdate', 'date', 'The date of birth, with a prefix (ge, gt, le, lt, eq).'),
    ...PAGING,
  ],
  MedicationRequest: [
    ID,
    IDENTIFIER,
    LAST_UPDATED,
    PATIENT('MedicationRequest.subject'),
    SUBJECT('MedicationRequest.subject'),
    ...PAGING,
  ],
  Task: [
    ID,
    IDENTIFIER,
    LAST_UPDATED,
    param('status', 'token', 'The status as it reads now (completed once the prescriber answered).'),
    PATIENT('Task.for'),
    SUBJECT('Task.for'),
    param('focus', 'reference', 'The prescription asked about: MedicationRequest/<id>.', ['MedicationRequest']),
    param('owner', 'reference', 'The prescriber asked: Practitioner/<id>.', ['Practitioner']),
    ...PAGING,
  ],
  Communication: [ID, IDENTIFIER, LAST_UPDATED, PATIENT('Communication.subject'), SUBJECT('Communication.subject'), ...PAGING],
} as const satisfies Record<string, readonly SearchParam[]>;

export type SearchableType = keyof typeof SEARCH_PARAMS;

/** The search parameters of a type, as the CapabilityStatement lists them. */
export const capabilityParams = (type: SearchableType) =>
  SEARCH_PARAMS[type].map(({ name, type: kind, documentation }) => ({ name, type: kind, documentation }));

/** Whether the client asked for strict handling (`Prefer: handling=strict`): unknown parameters are then an error. */
export function strictHandling(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  const values = Array.isArray(prefer) ? prefer : [prefer ?? ''];
  return values.some((value) => value.split(/[;,]/).some((part) => part.trim().toLowerCase() === 'handling=strict'));
}

/**
 * The query's parameters split into those the type supports and those it does not (a modifier such as
 * `name:exact` counts as not supported). Under strict handling an unsupported one answers 400 naming them all.
 */
export function appliedParams(request: FastifyRequest, type: SearchableType): URLSearchParams {
  const raw = new URL(request.url, 'http://fhir.local').searchParams;
  const known = new Set<string>(SEARCH_PARAMS[type].map((p) => p.name));
  const applied = new URLSearchParams();
  const unknown: string[] = [];
  for (const [name, value] of raw) {
    if (known.has(name)) applied.append(name, value);
    else if (!unknown.includes(name)) unknown.push(name);
  }
  if (unknown.length > 0 && strictHandling(request)) {
    const names = unknown.map((name) => name.slice(0, 60));
    throw new FhirError(
      400,
      'not-supported',
      `Not a search parameter of ${type} here: ${names.join(', ')}. Supported: ${[...known].join(', ')}.`,
      names,
    );
  }
  return applied;
}

/**
 * The id a reference parameter names (`Patient/<id>`, a bare `<id>`, or an absolute URL ending in one), checked
 * against the types it may name; a reference to another type is a 400.
 */
export function searchedId(value: string, name: string, target: readonly string[]): string {
  const parts = value.split('/');
  const id = parts.at(-1) ?? '';
  const type = parts.length >= 2 ? parts.at(-2) : undefined;
  if (type !== undefined && !target.includes(type)) {
    throw new FhirError(400, 'invalid', `${name} must name ${target.join(' or ')}/<id>.`, [name]);
  }
  return id;
}
