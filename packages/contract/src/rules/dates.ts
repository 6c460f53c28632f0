/**
 * Date input parsing and display (spec §3, §5). Plain calendar values: a date typed by a person is a
 * calendar day, not an instant, so parsing returns {year, month, day} and never goes through time zones.
 */
import { type CalendarDate, pad, toIsoDate, utcIsoDate } from './iso-dates.ts';

export type { CalendarDate } from './iso-dates.ts';

/** The ten accepted input formats of spec §5, for messages and documentation. */
export const DATE_INPUT_FORMATS = [
  'MM/DD/YYYY',
  'MM/D/YYYY',
  'MM/D/YY',
  'MM/DD/YY',
  'M/DD/YYYY',
  'M/D/YYYY',
  'M/D/YY',
  'M/DD/YY',
  'MMDDYY',
  'MMDDYYYY',
] as const;

export const DATE_INPUT_INVALID_MESSAGE = 'Date input not valid.';

/**
 * Two-digit years map into the 100-year window that ends ten years after the reference year
 * (docs/decisions/0005-two-digit-years.md): in 2026, '36' is 2036 and '37' is 1937. Dates typed in the
 * portal are birth dates (past) or follow-up dates (near future), and both fall inside that window.
 */
export const TWO_DIGIT_YEAR_LOOKAHEAD = 10;

export function expandTwoDigitYear(twoDigits: number, referenceYear: number): number {
  const pivot = referenceYear + TWO_DIGIT_YEAR_LOOKAHEAD;
  const century = Math.floor(pivot / 100) * 100;
  const candidate = century + twoDigits;
  return candidate > pivot ? candidate - 100 : candidate;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function isValidCalendarDate({ year, month, day }: CalendarDate): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 1 &&
    year <= 9999 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/;
const COMPACT = /^(\d{2})(\d{2})(\d{2}|\d{4})$/;

/**
 * Parses a typed date in any of the ten formats of spec §5. Strict: 02/30/2024, 13/01/2024 and
 * 2/3/202 are invalid (null). `referenceYear` decides two-digit years; it defaults to this year.
 */
export function parseDateInput(text: string, referenceYear = new Date().getFullYear()): CalendarDate | null {
  const input = text.trim();
  const match = SLASHED.exec(input) ?? COMPACT.exec(input);
  if (!match) return null;
  const [, mm, dd, yy] = match as unknown as [string, string, string, string];
  const year = yy.length === 2 ? expandTwoDigitYear(Number(yy), referenceYear) : Number(yy);
  const date = { year, month: Number(mm), day: Number(dd) };
  return isValidCalendarDate(date) ? date : null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Strict YYYY-MM-DD (the API's date format). */
export function parseIsoDate(text: string): CalendarDate | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isValidCalendarDate(date) ? date : null;
}

/**
 * A day a person typed into a day field (issue 47: one date field everywhere), as the API's YYYY-MM-DD: any of the
 * ten §5 formats (MM/DD/YYYY, MMDDYY …) or YYYY-MM-DD itself (pasted, or what a browser's own date field gives).
 * Null when it is not a real day.
 */
export function isoOfTypedDay(text: string, referenceYear = new Date().getFullYear()): string | null {
  const trimmed = text.trim();
  const date = parseIsoDate(trimmed) ?? parseDateInput(trimmed, referenceYear);
  return date ? toIsoDate(date) : null;
}

/** The message of a day field whose text is not a day. */
export const DAY_FIELD_FORMAT_MESSAGE = 'Enter a date as MM/DD/YYYY.';

export function formatUsDate({ year, month, day }: CalendarDate): string {
  return `${pad(month)}/${pad(day)}/${pad(year, 4)}`;
}

export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

export function calendarDateOf(date: Date): CalendarDate {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** Today in the reader's own zone, YYYY-MM-DD (the day a person means when they type or read a date). */
export function localTodayIso(now: Date = new Date()): string {
  return toIsoDate(calendarDateOf(now));
}

/**
 * The calendar day (YYYY-MM-DD) of an instant in an IANA time zone (en-CA writes that form): the reports' days are
 * the reporting zone's (AUDIT_TIME_ZONE, told to the page in the tenant answer), whatever the reader's own zone.
 */
export function dayInZone(timeZone: string, at: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** A date and time of day in the reader's own zone (or a calendar date at midnight). */
export interface DateTimeParts extends CalendarDate {
  hour: number;
  minute: number;
  second: number;
}

/**
 * API date-times (spec §3: 'YYYY-MM-DD HH:mm...') are instants in UTC and say so with a trailing 'Z'
 * ('2026-11-24 16:41:00Z'); an ISO 'T' form or another offset is read as well, and a date-time without
 * a zone is taken as UTC (older answers). Issue 21: they used to be UTC wall clocks read as local ones,
 * so a New York office missed its newest prescriptions and saw two times for one event.
 */
const API_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?\d*)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant of an API date-time; a bare date is midnight UTC of that day. Null when unreadable. */
export function parseApiInstant(text: string | null | undefined): Date | null {
  const match = text ? API_DATE_TIME.exec(text.trim()) : null;
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', fraction = '', zone = 'Z'] = match as unknown as string[];
  const date = { year: Number(y), month: Number(mo), day: Number(d) };
  const clock = { hour: Number(h), minute: Number(mi), second: Number(sec) };
  if (!isValidCalendarDate(date) || clock.hour > 23 || clock.minute > 59 || clock.second > 59) return null;
  const offsetMinutes =
    zone === 'Z' || zone === undefined
      ? 0
      : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  const ms = fraction ? Math.round(Number(fraction) * 1000) : 0;
  const utc = Date.UTC(date.year, date.month - 1, date.day, clock.hour, clock.minute, clock.second, ms);
  // Date.UTC maps years 0-99 to 1900-1999; set the full year again.
  const instant = new Date(utc - offsetMinutes * 60_000);
  if (date.year < 100) instant.setUTCFullYear(date.year);
  return instant;
}

/** The parts of a local Date (the browser's zone). */
export function localParts(date: Date): DateTimeParts {
  return { ...calendarDateOf(date), hour: date.getHours(), minute: date.getMinutes(), second: date.getSeconds() };
}

/**
 * An API date or date-time as the reader's own calendar and clock. A bare date (a birth date, a
 * postponement day) is a calendar day and never moves between zones; a date-time is an instant.
 */
export function parseApiDateTime(text: string | null | undefined): DateTimeParts | null {
  if (!text) return null;
  const bare = parseIsoDate(text.trim());
  if (bare) return { ...bare, hour: 0, minute: 0, second: 0 };
  const instant = parseApiInstant(text);
  return instant ? localParts(instant) : null;
}

/** 'YYYY-MM-DD HH:mm:ssZ' — the API's date-time: the instant in UTC, with its zone (spec §3, issue 21). */
export function formatApiDateTime(date: Date): string {
  return `${utcIsoDate(date)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}Z`;
}

/** MM/DD/YYYY from an API date or date-time string; '' when it cannot be read. */
export function formatApiDate(text: string | null | undefined): string {
  const parts = parseApiDateTime(text);
  return parts ? formatUsDate(parts) : '';
}

export function formatClock12(hour: number, minute: number): string {
  const suffix = hour < 12 ? 'am' : 'pm';
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}:${pad(minute)} ${suffix}`;
}

/** Prescribed date with time: 'Today h:mm am/pm' for today, else 'MM/DD/YYYY h:mm am/pm' (spec §2, §3). */
export function formatPrescribedDate(text: string | null | undefined, now: Date = new Date()): string {
  const parts = parseApiDateTime(text);
  if (!parts) return '';
  const clock = formatClock12(parts.hour, parts.minute);
  return compareCalendarDates(parts, calendarDateOf(now)) === 0 ? `Today ${clock}` : `${formatUsDate(parts)} ${clock}`;
}

/** Last processed date as 'MM/DD, h:mm am/pm' (12-hour clock, as every time in the portal). */
export function formatMonthDayTime(text: string | null | undefined): string {
  const parts = parseApiDateTime(text);
  if (!parts) return '';
  return `${pad(parts.month)}/${pad(parts.day)}, ${formatClock12(parts.hour, parts.minute)}`;
}

/**
 * The portal's one date-time format, 'MM/DD/YYYY h:mm am/pm' in the reader's zone (spec §9 dates with
 * spec §2's 12-hour clock). Every screen that shows when something happened uses it (issue 21 found four).
 */
export function formatDateTime(value: string | Date | null | undefined): string {
  const parts = localPartsOf(value);
  return parts ? `${formatUsDate(parts)} ${formatClock12(parts.hour, parts.minute)}` : '';
}

/** 'h:mm am/pm' of an instant in the reader's zone. */
export function formatTime(value: string | Date | null | undefined): string {
  const parts = localPartsOf(value);
  return parts ? formatClock12(parts.hour, parts.minute) : '';
}

/** A Date or an API date-time as the reader's calendar and clock; null when it is no instant. */
function localPartsOf(value: string | Date | null | undefined): DateTimeParts | null {
  const instant = value instanceof Date ? value : parseApiInstant(value);
  return instant && !Number.isNaN(instant.getTime()) ? localParts(instant) : null;
}
