/**
 * FHIR dates (R4 §2.24.0: date, dateTime, instant) and date search values, on the one calendar rule of dates.ts:
 * a day that does not exist (2026-02-30, month 13, year 0000) is no date at all. Issue 43: `new Date('2026-02-30')`
 * rolls over to March 2, so a pharmacy's impossible authoredOn was stored as another day, and a search for it
 * silently searched that other day.
 *
 * A value names a range as wide as its precision: '2026' the whole year, '2026-11' the month, '2026-11-29' the day,
 * '2026-11-29T10:15Z' (search only) the minute, and so on. `start` is inclusive and `end` exclusive.
 */
import { daysInMonth, isValidCalendarDate } from './dates.ts';

export interface FhirDateRange {
  start: Date;
  end: Date;
}

export type FhirDateKind =
  /** YYYY, YYYY-MM or YYYY-MM-DD (Patient.birthDate may be partial in FHIR; callers that need a day say so). */
  | 'date'
  /** date, or a date with a time of day and a zone (seconds required, as FHIR's dateTime). */
  | 'dateTime'
  /** a search value: a dateTime whose time may stop at minutes. */
  | 'search';

const FHIR_DATE_TIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** The largest offset any zone has used (UTC+14:00, Kiribati; UTC-12:00 is inside it). */
const MAX_OFFSET_MINUTES = 14 * 60;

function utcInstant(year: number, month: number, day: number, ms = 0): Date {
  // Date.UTC maps years 0-99 to 1900-1999, so the year is set again on the instant.
  const instant = new Date(Date.UTC(2000, month - 1, day));
  instant.setUTCFullYear(year, month - 1, day);
  return new Date(instant.getTime() + ms);
}

/**
 * The range a FHIR date or dateTime names, or null when it is not one: wrong shape, a day the calendar does not
 * have, a time past 23:59:59, a zone past ±14:00, or (for 'date') any time at all. A time of day needs a zone.
 */
export function parseFhirDate(text: string, kind: FhirDateKind): FhirDateRange | null {
  const match = FHIR_DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  if (year < 1) return null;
  if (mo === undefined) return { start: utcInstant(year, 1, 1), end: utcInstant(year + 1, 1, 1) };
  const month = Number(mo);
  if (month < 1 || month > 12) return null;
  if (d === undefined) {
    return { start: utcInstant(year, month, 1), end: utcInstant(year, month, 1, daysInMonth(year, month) * 86_400_000) };
  }
  const day = Number(d);
  if (!isValidCalendarDate({ year, month, day })) return null;
  if (h === undefined) return { start: utcInstant(year, month, day), end: utcInstant(year, month, day, 86_400_000) };
  if (kind === 'date' || zone === undefined || (kind === 'dateTime' && s === undefined)) return null;
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetHours = zone === 'Z' ? 0 : Number(zone.slice(1, 3));
  const offsetMinutesPart = zone === 'Z' ? 0 : Number(zone.slice(4, 6));
  if (offsetMinutesPart > 59) return null;
  const offset = (zone.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMinutesPart);
  if (Math.abs(offset) > MAX_OFFSET_MINUTES) return null;
  const ms = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const start = utcInstant(year, month, day, ((hour * 60 + minute - offset) * 60 + second) * 1000 + ms);
  const span = s === undefined ? 60_000 : fraction === undefined ? 1000 : 1;
  return { start, end: new Date(start.getTime() + span) };
}

/** True when `text` is a FHIR date or dateTime of that kind that names a real day. */
export function isFhirDate(text: string, kind: FhirDateKind): boolean {
  return parseFhirDate(text, kind) !== null;
}
