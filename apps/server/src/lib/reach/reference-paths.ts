/**
 * Where a route's input names records (issue 42): read once per route from its zod schemas, as JSON Schema, so
 * the declaration in the contract (`ref(kind, ...)`) is the only thing that decides what is checked. The same
 * reading drives the reach guard (plugins/reach.ts) and the tests that generate their cells from the routes.
 */
import { REFERENCE_KEY, REFERENCE_KINDS, REFERENCE_OF_KEY, type ReferenceKind } from '@hcp/contract';
import { z } from 'zod';

export type InputLocation = 'params' | 'querystring' | 'body';

/** One field that names a record: `path` from the location's root, '[]' standing for every element of an array. */
export interface ReferencePath {
  location: InputLocation;
  path: string[];
  kind: ReferenceKind;
  /** A sibling field naming the record this one must belong to. */
  of?: string;
}

type JsonSchema = Record<string, unknown>;

const isKind = (value: unknown): value is ReferenceKind => (REFERENCE_KINDS as readonly string[]).includes(value as string);

/** A route's schema (zod, or JSON Schema already) as JSON Schema of what the client sends. */
export function inputJsonSchema(schema: unknown): JsonSchema | null {
  if (!schema || typeof schema !== 'object') return null;
  if (schema instanceof z.ZodType) return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return schema as JsonSchema;
}

/**
 * Visits every schema node under `root` with its property path ('[]' for an array's elements), following objects,
 * arrays, unions and local $refs; `property` is set where the node is a named property. A node is not entered again
 * inside itself (a recursive schema).
 */
function walkSchema(root: JsonSchema, visit: (node: JsonSchema, path: string[], property: boolean) => void): void {
  const defs = {
    ...((root.$defs as Record<string, JsonSchema>) ?? {}),
    ...((root.definitions as Record<string, JsonSchema>) ?? {}),
  };
  const active = new Set<JsonSchema>();
  const walk = (node: JsonSchema | undefined, path: string[], property: boolean) => {
    if (!node || typeof node !== 'object' || active.has(node)) return;
    active.add(node);
    visit(node, path, property);
    if (typeof node.$ref === 'string') walk(defs[node.$ref.replace(/^#\/(\$defs|definitions)\//, '')], path, false);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      for (const branch of (node[key] as JsonSchema[] | undefined) ?? []) walk(branch, path, false);
    }
    for (const [name, child] of Object.entries((node.properties as Record<string, JsonSchema>) ?? {}))
      walk(child, [...path, name], true);
    if (node.items && typeof node.items === 'object' && !Array.isArray(node.items))
      walk(node.items as JsonSchema, [...path, '[]'], false);
    active.delete(node);
  };
  walk(root, [], false);
}

/** Every declared reference in a JSON schema, with its path. */
export function referencesIn(root: JsonSchema, location: InputLocation): ReferencePath[] {
  const found: ReferencePath[] = [];
  walkSchema(root, (node, path) => {
    const kind = node[REFERENCE_KEY];
    if (!isKind(kind)) return;
    const of = node[REFERENCE_OF_KEY];
    found.push({ location, path, kind, ...(typeof of === 'string' ? { of } : {}) });
  });
  return found;
}

/**
 * Every property a JSON schema accepts, as a path from the root ('staff.role', 'items.[].id'): an access-granting
 * field is accepted only where the schema declares it, not wherever its name appears.
 */
export function propertyPathsIn(root: JsonSchema): Set<string> {
  const paths = new Set<string>();
  walkSchema(root, (_node, path, property) => {
    if (property) paths.add(path.join('.'));
  });
  return paths;
}

/** The last name of a property path ('staff.role' -> 'role'). */
export const fieldOfPath = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/** The values at `path` in `value` (every element where the path says '[]'), each with the object that holds it. */
export function valuesAt(value: unknown, path: string[]): { value: unknown; holder: Record<string, unknown> | null }[] {
  let current: { value: unknown; holder: Record<string, unknown> | null }[] = [{ value, holder: null }];
  for (const step of path) {
    const next: typeof current = [];
    for (const { value: v } of current) {
      if (step === '[]') {
        if (Array.isArray(v)) for (const item of v) next.push({ value: item, holder: null });
      } else if (v && typeof v === 'object' && !Array.isArray(v)) {
        const holder = v as Record<string, unknown>;
        if (step in holder) next.push({ value: holder[step], holder });
      }
    }
    current = next;
  }
  return current;
}
