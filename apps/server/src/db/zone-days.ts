/**
 * Whole days in a time zone (the reports' days: the audit trail's and EPCS's, AUDIT_TIME_ZONE). A day asked for
 * by a person is their calendar day, not UTC's: a New York administrator's "today" at 8 pm is still today.
 */
import { sql } from 'drizzle-orm';

/** From the first day's 00:00 to the day after the last's 00:00, in the zone. */
export interface ZoneDays {
  from: string;
  to: string;
  timeZone: string;
}

/** The range's first instant, and the first instant after it, as SQL (for `>= start and < end`). */
export const startOf = (r: ZoneDays) => sql`(${r.from}::date::timestamp at time zone ${r.timeZone})`;
export const endOf = (r: ZoneDays) => sql`((${r.to}::date + 1)::timestamp at time zone ${r.timeZone})`;
