/** The Rx list's window and the query it sends (spec §9), without zod: the first load sends it early (decision 0046). */

import { utcIsoDate } from './iso-dates.ts';
import type { RxListFilter } from './rx-list.ts';

/** Spec §9: the Rx list opens on the last 24 hours. */
export const RX_LIST_DEFAULT_WINDOW_MS = 86_400_000;

/** The filter the Rx list opens on: every prescription of the window. */
export const RX_LIST_DEFAULT_FILTER: RxListFilter = 'none';

/** The window the Rx list opens on, ending now. */
export function rxListDefaultWindow(now: Date = new Date()): { from: Date; to: Date } {
  return { from: new Date(now.getTime() - RX_LIST_DEFAULT_WINDOW_MS), to: now };
}

/**
 * The query for a window of the reader's moments: whole UTC days, both included (issue 21); the screen keeps the
 * exact moments and trims the rows to them. The keys' order is the URL's, so the screen and the request sent
 * before its code arrived ask for the same URL.
 */
export function rxListQueryFor(
  from: Date,
  to: Date,
  selectedFilter: RxListFilter,
): { startdate: string; enddate: string; selectedFilter: RxListFilter } {
  return { startdate: utcIsoDate(from), enddate: utcIsoDate(to), selectedFilter };
}
