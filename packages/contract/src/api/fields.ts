/**
 * Named field schemas with their user-facing messages, used by both the forms (as resolver) and the
 * server routes, so a rule and its message exist once.
 */
import { z } from 'zod';
import { parseDateInput, parseIsoDate } from '../rules/dates.ts';
import { isSingleLineText, TEXT_SAFETY_MESSAGES } from '../rules/text-safety.ts';
import {
  isAlphanumeric,
  isEmail,
  isFullName,
  isLettersDigitsSpacesDots,
  isNpi,
  isUsPhone,
  isZip,
  US_STATES,
} from '../rules/validators.ts';

/**
 * A number in a JSON body, or the same number typed into a form field ("30"). Unlike z.coerce it refuses what is
 * not a number at all (true, null, [], "" would coerce to 1 or 0 and pass as a quantity).
 */
export function numberField<T extends z.ZodType<number>>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
}

/**
 * An id a person picks from a list (a practice, a product, a patient). The message is for people: they
 * never type ids, so a bad one means nothing was picked (issue 21: 'Must be a valid id.' reached screens).
 */
export const idSchema = z.string().uuid({ message: 'Choose one from the list.' });
/** The length of a uuid in its text form (8-4-4-4-12). */
export const UUID_LENGTH = 36;
/** The same, naming what to choose ('Choose a practice.'). */
export const pickedIdSchema = (message: string) => z.string().uuid({ message });
export const emailSchema = z
  .string()
  .trim()
  .max(254, { message: 'Email is too long.' })
  .refine(isEmail, { message: 'Enter a valid email address.' });
export const passwordSchema = z.string().min(1, { message: 'Password is required.' }).max(256);
/** A new password: long enough to resist guessing; no composition rules (NIST SP 800-63B). */
export const newPasswordSchema = z
  .string()
  .min(12, { message: 'Password must be at least 12 characters.' })
  .max(256, { message: 'Password must be at most 256 characters.' });
const PHONE_MESSAGE = 'Enter a phone number as (555) 555-5555.';
export const usPhoneSchema = z.string().trim().max(25, { message: PHONE_MESSAGE }).refine(isUsPhone, { message: PHONE_MESSAGE });
const ZIP_MESSAGE = 'Enter a 5-digit ZIP code (optionally +4).';
export const zipSchema = z.string().trim().max(10, { message: ZIP_MESSAGE }).refine(isZip, { message: ZIP_MESSAGE });
/**
 * A token the server issued (a sign-in step, a refresh token, a reset link's token, a signed JWT): opaque to the
 * client, and never longer than this (issue 43: every string of a request has a limit in the contract).
 */
export const TOKEN_MAX = 4096;
export const tokenTextSchema = z.string().max(TOKEN_MAX);
export const stateSchema = z.enum(US_STATES, { message: 'Choose a US state.' });
/** A person's name: the longest real ones are well under 100 characters (issue 43: no limit let 900,000 through). */
export const FULL_NAME_MAX = 100;
/**
 * Says in the OpenAPI document that a text field is one line (no line breaks, tabs or text-direction characters), so
 * a reader of the API and the generated bad-input cases (issue 43) know it without reading the code.
 */
export const SINGLE_LINE_FORMAT = 'single-line';
export const fullNameSchema = z
  .string()
  .trim()
  .max(FULL_NAME_MAX, { message: `Keep the name under ${FULL_NAME_MAX} characters.` })
  .refine(isFullName, { message: 'Enter a first and last name (letters, hyphens and apostrophes only).' })
  .meta({ format: SINGLE_LINE_FORMAT });
/**
 * One line of plain text up to `max` characters (a practice's name, an address line, a city): what reaches a mail
 * subject or a fax cover sheet cannot carry line breaks or text-direction characters (issue 43).
 */
export const singleLineSchema = (max: number, tooLong: string, required?: { min?: number; message: string }) =>
  z
    .string(required ? { message: required.message } : undefined)
    .trim()
    .min(required?.min ?? 0, { message: required?.message })
    .max(max, { message: tooLong })
    .refine(isSingleLineText, { message: TEXT_SAFETY_MESSAGES.singleLine })
    .meta({ format: SINGLE_LINE_FORMAT });
export const lettersDigitsSpacesDotsSchema = z
  .string()
  .refine(isLettersDigitsSpacesDots, { message: 'Use letters, digits, spaces and dots only.' });
export const alphanumericSchema = z.string().refine(isAlphanumeric, { message: 'Use letters and digits only.' });
export const npiSchema = z
  .string()
  .trim()
  .max(10, { message: 'Enter a valid 10-digit NPI.' })
  .refine(isNpi, { message: 'Enter a valid 10-digit NPI.' });
/** The API's calendar date, strict YYYY-MM-DD. */
export const isoDateSchema = z
  .string()
  .max(10, { message: 'Use a real date as YYYY-MM-DD.' })
  .refine((v) => parseIsoDate(v) !== null, { message: 'Use a real date as YYYY-MM-DD.' })
  // JSON Schema's own name for a calendar date: readers of the API, and the generated bad-input cases, know it.
  .meta({ format: 'date' });
/** A date typed by a person in any of the ten accepted US formats. */
export const usDateInputSchema = z
  .string()
  .max(10, { message: 'Date input not valid.' })
  .refine((v) => parseDateInput(v) !== null, { message: 'Date input not valid.' });

/**
 * An optional form field: blank text (or null) means "not given" and becomes null; anything else must
 * pass `schema`, with that schema's message.
 */
export function optionalField<T extends z.ZodType<unknown, string>>(schema: T) {
  // The inner field's limit, said on the outside too: the OpenAPI document (and the bad-input cases read from it)
  // would otherwise show an optional field as unbounded. The inner schema still checks it, with its own message.
  const inner = schema as { maxLength?: number | null; format?: string | null };
  const maxLength = inner.maxLength ?? (inner.format === 'uuid' ? UUID_LENGTH : undefined);
  return z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : v))
    .pipe(schema.nullable())
    .nullable()
    .default(null)
    .meta(maxLength === undefined ? {} : { maxLength });
}

/** Optional free text (a note): trimmed, blank reads as none (null), at most `max` characters. */
export const optionalTextSchema = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, { message })
    .nullish()
    .transform((v) => (v ? v : null));
