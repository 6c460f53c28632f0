/**
 * YYYY-MM-DD, the days the API speaks in. Apart from the rest of dates.ts because the first load needs these (the Rx
 * list's early request, decision 0046) and a module travels whole with the chunk that first needs it.
 */

/** A day of the calendar, no time and no zone (here, not in dates.ts, so that this small file imports nothing). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

export function toIsoDate({ year, month, day }: CalendarDate): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The UTC calendar day of an instant, YYYY-MM-DD (the days the Rx list query speaks in). */
export function utcIsoDate(date: Date): string {
  return toIsoDate({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
}
