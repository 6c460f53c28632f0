import { calendarDateOf, toIsoDate } from '@hcp/contract';

/** Today's date (YYYY-MM-DD) on the business clock the app was built with (tests move it). */
export const todayIsoOf = (now: () => Date): string => toIsoDate(calendarDateOf(now()));
