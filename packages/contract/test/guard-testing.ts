/**
 * Shared by the property tests that hold each zod-free answer guard to its schema (decision 0043): the guard must
 * accept exactly what the schema accepts, over valid answers and near misses generated from them.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/** What a wrong field holds: mostly the values at the edges of the schemas' rules, sometimes anything at all. */
const EDGE_VALUES: readonly unknown[] = [0, -1, 1, 1.5, 2 ** 53, Number.NaN, '', 'text', true, null, undefined, [], {}];
const replacement = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_VALUES) },
  { weight: 1, arbitrary: fc.oneof(fc.anything(), fc.string(), fc.double(), fc.array(fc.anything(), { maxLength: 2 })) },
);

/** A record with one key replaced by anything (or removed): the near misses a guard must refuse as the schema does. */
export function nearMissesOf<T extends Record<string, unknown>>(valid: fc.Arbitrary<T>, keys: readonly string[]) {
  return fc.tuple(valid, fc.constantFrom(...keys), replacement).map(([value, key, replaced]) => ({ ...value, [key]: replaced }));
}

type Path = (string | number)[];

/** Every place in a JSON-like value: each key of each record and each index of each array, at any depth. */
function placesOf(value: unknown, at: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...at, index], ...placesOf(item, [...at, index])]);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [[...at, key], ...placesOf(item, [...at, key])]);
  }
  return [];
}

/** A copy of `value` with the place at `path` replaced (or, for a record's key, removed when `remove`). */
function replacedAt(value: unknown, path: Path, replaced: unknown, remove: boolean): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replaced;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replacedAt(item, rest, replaced, remove) : item));
  const record = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete record[head];
  else record[head] = replacedAt(record[head], rest, replaced, remove);
  return record;
}

/**
 * Near misses anywhere in a valid answer: one place, at any depth (a doctor's name, the third prescription's
 * price), replaced by anything or removed. The places come from the answer itself, so a field added to the
 * generator is covered without listing it here.
 */
export function nearMissesAnywhere(valid: fc.Arbitrary<unknown>) {
  return fc
    .tuple(
      valid,
      fc.nat(),
      fc.nat(),
      replacement,
      fc.nat({ max: 7 }).map((n) => n === 0),
    )
    .map(([value, field, occurrence, replaced, remove]) => {
      // Each field name (an array's items count as one) is as likely as any other, however often it occurs: a
      // prescription's 28 fields would otherwise crowd out the doctor's 4.
      const byField = new Map<string, Path[]>();
      for (const path of placesOf(value)) {
        const last = path[path.length - 1];
        const name = typeof last === 'number' ? '[]' : String(last);
        byField.set(name, [...(byField.get(name) ?? []), path]);
      }
      const names = [...byField.keys()];
      if (names.length === 0) return value;
      const paths = byField.get(names[field % names.length] as string) as Path[];
      return replacedAt(value, paths[occurrence % paths.length] as Path, replaced, remove);
    });
}

/** The guard agrees with the schema on every generated value, and both sides (accepted, refused) are reached. */
export function expectSameAsSchema(
  arbitrary: fc.Arbitrary<unknown>,
  guard: (value: unknown) => boolean,
  schema: { safeParse: (value: unknown) => { success: boolean } },
  numRuns = 3000,
) {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(arbitrary, (value) => {
      const expected = schema.safeParse(value).success;
      if (expected) accepted += 1;
      else refused += 1;
      expect(guard(value)).toBe(expected);
    }),
    { numRuns },
  );
  // Both sides are reached: a generator that only made refusals would prove nothing.
  expect(accepted).toBeGreaterThan(numRuns / 10);
  expect(refused).toBeGreaterThan(numRuns / 10);
}

/**
 * Every place of each sample (every field at every depth, every list item) holding each edge value in turn, and
 * each record field removed: the guard must agree with the schema on all of them. Deterministic where the random
 * near misses are not: a rule of one deep field (a prepared decision's refills) is always reached.
 */
export function expectSameAtEveryPlace(
  samples: readonly unknown[],
  guard: (value: unknown) => boolean,
  schema: { safeParse: (value: unknown) => { success: boolean } },
) {
  let checked = 0;
  const disagreements: string[] = [];
  for (const sample of samples) {
    for (const path of placesOf(sample)) {
      const variants = [
        ...EDGE_VALUES.map((edge) => ({ label: String(edge), value: replacedAt(sample, path, edge, false) })),
        ...(typeof path[path.length - 1] === 'string'
          ? [{ label: 'removed', value: replacedAt(sample, path, undefined, true) }]
          : []),
      ];
      for (const { label, value } of variants) {
        checked += 1;
        if (guard(value) !== schema.safeParse(value).success) disagreements.push(`${path.join('.')} = ${label}`);
      }
    }
  }
  expect(disagreements).toEqual([]);
  return checked;
}
