/** Shared format checks and display helpers (spec §5). */
import { parseDateInput, parseIsoDate } from './dates.ts';

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,15}$/;
export const LETTERS_DIGITS_SPACES_DOTS_PATTERN = /^[A-Za-z0-9 .]*$/;
export const US_PHONE_PATTERN = /^\(\d{3}\) \d{3}-\d{4}$/;
export const ZIP_PATTERN = /^\d{5}(?:-\d{4})?$/;
export const ALPHANUMERIC_PATTERN = /^[A-Za-z0-9]+$/;

export const isEmail = (value: string): boolean => EMAIL_PATTERN.test(value);
export const isLettersDigitsSpacesDots = (value: string): boolean => LETTERS_DIGITS_SPACES_DOTS_PATTERN.test(value);
export const isUsPhone = (value: string): boolean => US_PHONE_PATTERN.test(value);
export const isZip = (value: string): boolean => ZIP_PATTERN.test(value);
export const isAlphanumeric = (value: string): boolean => ALPHANUMERIC_PATTERN.test(value);

/** A date typed in any accepted US format, or the API's YYYY-MM-DD. */
export function isDateText(value: string, referenceYear?: number): boolean {
  return parseDateInput(value, referenceYear) !== null || parseIsoDate(value.trim()) !== null;
}

/** Letters, spaces, dots, hyphens and apostrophes (straight or typographic): what people's names are made of. */
export const FULL_NAME_PATTERN = /^[A-Za-z .'’-]*$/;

/**
 * Full name: at least two space-separated words, the first and last at least two characters, no digits. The spec
 * allows letters, spaces and dots only; we also take hyphens and apostrophes, since "Mary-Jane O'Neil" is a real
 * person's name (issue 21).
 */
export function isFullName(value: string): boolean {
  if (!FULL_NAME_PATTERN.test(value)) return false;
  const words = value.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return false;
  const letters = (word: string | undefined) => (word ?? '').replace(/[^A-Za-z]/g, '').length;
  return letters(words[0]) >= 2 && letters(words[words.length - 1]) >= 2;
}

/** The 50 US states; the District of Columbia is deliberately not in the list (spec §5). */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;
export type UsState = (typeof US_STATES)[number];
const STATE_SET: ReadonlySet<string> = /* @__PURE__ */ new Set(US_STATES);
export const isUsState = (value: string): value is UsState => STATE_SET.has(value);

/** Capitalises each word, also after hyphens and apostrophes: "mary-JANE o'neil" -> "Mary-Jane O'Neil". */
export function capitalizeName(value: string | null | undefined): string {
  if (!value) return '';
  return value.toLowerCase().replace(/(^|[\s\-'])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** The NPI check digit of a nine-digit stem: Luhn over '80840' + the stem (the CMS rule for US NPIs). */
export function npiCheckDigit(stem: string): number {
  const digits = `80840${stem}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** NPI: ten digits whose last digit is the check digit of the first nine. */
export function isNpi(value: string): boolean {
  return /^\d{10}$/.test(value) && npiCheckDigit(value.slice(0, 9)) === Number(value[9]);
}
