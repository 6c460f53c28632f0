/**
 * The pieces the zod-free answer guards are built from (decision 0043): each reads as the zod schema it stands for,
 * so a guard is written beside its schema's shape and held to it by a property test (test/answer-guards.test.ts,
 * test/screen-guards.test.ts). Each piece refuses what zod refuses for the same rule: `z.number()` refuses NaN and
 * the infinities, `.int()` anything past the safe integers, `z.object()` arrays and null.
 */
import { isRecord } from './answer-guards.ts';

export type Check = (value: unknown) => boolean;

export const isString: Check = (value) => typeof value === 'string';
export const isBoolean: Check = (value) => typeof value === 'boolean';
/** `z.number()`. */
export const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
/** `z.number().int()`. */
export const isInteger: Check = (value) => Number.isSafeInteger(value);
/** `.nullable()`. */
export const orNull =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
/** `.optional()`: the field may be missing (undefined). */
export const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
/** `z.enum(values)` or `z.literal(value)`. */
export const oneOf =
  (values: readonly unknown[]): Check =>
  (value) =>
    values.includes(value);
/** `z.array(item)`. */
export const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** `z.object(shape)`: a record whose named fields each pass their check; other fields are let through, as zod strips them. */
export const fields =
  (spec: Record<string, Check>): Check =>
  (value) =>
    isRecord(value) && Object.entries(spec).every(([key, check]) => check(value[key]));
/** `z.discriminatedUnion(key, options)`: the option named by the record's `key` field decides. */
export const unionOn =
  (key: string, options: Record<string, Check>): Check =>
  (value) => {
    if (!isRecord(value)) return false;
    const tag = value[key];
    return typeof tag === 'string' && Object.hasOwn(options, tag) && (options[tag] as Check)(value);
  };
