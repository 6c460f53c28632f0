/**
 * Date input parsing and display (spec §3, §5). Plain calendar values: a date typed by a person is a
 * calendar day, not an instant, so parsing returns {year, month, day} and never goes through time zones.
 */

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

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

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

export function toIsoDate({ year, month, day }: CalendarDate): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function formatUsDate({ year, month, day }: CalendarDate): string {
  return `${pad(month)}/${pad(day)}/${pad(year, 4)}`;
}

export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

export function calendarDateOf(date: Date): CalendarDate {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** A wall-clock date and time as the API sends it: 'YYYY-MM-DD HH:mm[:ss[.fff]]' or an ISO 'T' form. */
export interface DateTimeParts extends CalendarDate {
  hour: number;
  minute: number;
  second: number;
}

const API_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?/;

export function parseApiDateTime(text: string | null | undefined): DateTimeParts | null {
  if (!text) return null;
  const match = API_DATE_TIME.exec(text);
  if (!match) return null;
  const parts = {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: Number(match[4] ?? 0),
    minute: Number(match[5] ?? 0),
    second: Number(match[6] ?? 0),
  };
  if (!isValidCalendarDate(parts) || parts.hour > 23 || parts.minute > 59 || parts.second > 59) return null;
  return parts;
}

/** 'YYYY-MM-DD HH:mm:ss' — the shape the API uses for date-times (spec §3). */
export function formatApiDateTime(date: Date): string {
  return `${toIsoDate(calendarDateOf(date))} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
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

/** Prescribed date with time: 'Today h:mm am/pm' for today, else 'MM/DD/YYYY h:mm am/pm'. */
export function formatPrescribedDate(text: string | null | undefined, now: Date = new Date()): string {
  const parts = parseApiDateTime(text);
  if (!parts) return '';
  const clock = formatClock12(parts.hour, parts.minute);
  return compareCalendarDates(parts, calendarDateOf(now)) === 0 ? `Today ${clock}` : `${formatUsDate(parts)} ${clock}`;
}

/** Last processed date as 'MM/DD, HH:mm' (24-hour clock). */
export function formatMonthDayTime(text: string | null | undefined): string {
  const parts = parseApiDateTime(text);
  if (!parts) return '';
  return `${pad(parts.month)}/${pad(parts.day)}, ${pad(parts.hour)}:${pad(parts.minute)}`;
}
