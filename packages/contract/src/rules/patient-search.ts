/** How the one All Patients search box reads what was typed: name words, a date of birth, a phone number. */
import { parseDateInput, parseIsoDate } from './dates.ts';
import { toIsoDate } from './iso-dates.ts';

export interface PatientSearchTerms {
  words: string[];
  dobIso: string | null;
  phoneDigits: string | null;
}

/** Shorter searches are refused (the search schema, api/patients.ts) and never sent by the screen. */
export const PATIENT_SEARCH_MIN_LENGTH = 2;
export const PATIENT_SEARCH_EMPTY_MESSAGE = 'No patients match your search.';

const MAX_WORDS = 5;

export function parsePatientSearchText(text: string, referenceYear?: number): PatientSearchTerms {
  const trimmed = text.trim();
  const date = parseIsoDate(trimmed) ?? parseDateInput(trimmed, referenceYear);
  let phoneDigits: string | null = null;
  if (/^[\d\s().+-]+$/.test(trimmed)) {
    let digits = trimmed.replace(/\D/g, '');
    if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
    if (digits.length >= 4) phoneDigits = digits;
  }
  const words = /\p{L}/u.test(trimmed)
    ? trimmed
        .toLowerCase()
        .split(/[\s,]+/)
        .map((w) => w.replace(/[^\p{L}'.-]/gu, ''))
        .filter((w) => w.length > 0)
        .slice(0, MAX_WORDS)
    : [];
  return { words, dobIso: date ? toIsoDate(date) : null, phoneDigits };
}
