/**
 * The Rx list's rules (spec §9) without zod: its filters, limits, date-range checks and texts. The screen draws with
 * no zod (decision 0064) and the query's schema (api/prescriptions.ts) reads the same rules. Apart from
 * rx-list-window.ts, which the first load carries to send the opening query early (decision 0046).
 */
import { utcIsoDate } from './iso-dates.ts';

/** Rx list filter options (spec §9), in display order. */
export const RX_LIST_FILTERS = [
  { value: 'none', label: 'None' },
  { value: 'newMDs', label: 'New MDs' },
  { value: 'bausch', label: 'Bausch' },
  { value: 'tolsura', label: 'Tolsura' },
  { value: 'winBackMDs', label: 'Win-Back MDs' },
] as const;
export type RxListFilter = (typeof RX_LIST_FILTERS)[number]['value'];
export const RX_LIST_FILTER_VALUES = RX_LIST_FILTERS.map((f) => f.value) as [RxListFilter, ...RxListFilter[]];

/** At most this many rows per answer (the newest first); the screen says so when it is reached. */
export const RX_LIST_MAX_ROWS = 10_000;

/**
 * A range is inclusive of both days, starts no later than it ends and spans at most one year. The days
 * are UTC calendar days, as are the instants of the answer's date-times (issue 21): a screen turns its
 * reader's local moments into UTC days with utcIsoDate and keeps the exact moments itself.
 */
export function rxListRangeProblem(startIso: string, endIso: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startIso) || !/^\d{4}-\d{2}-\d{2}$/.test(endIso)) return null;
  if (startIso > endIso) return 'The start date must not be after the end date.';
  const [y, m, d] = startIso.split('-').map(Number) as [number, number, number];
  const limit = `${String(y + 1).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (endIso > limit) return 'Choose a range of at most one year.';
  return null;
}
/**
 * The problem with a From/To pair of moments as a screen picks them, or null: From after To, or the UTC
 * days the query would send breaking rxListRangeProblem. The screen shows it instead of sending a query
 * the server would refuse (issue 21: a refused range looked like 'No Prescriptions found.').
 */
export function rxListWindowProblem(from: Date, to: Date): string | null {
  if (from.getTime() > to.getTime()) return 'The From date must be before the To date.';
  return rxListRangeProblem(utcIsoDate(from), utcIsoDate(to));
}

/** Shown in place of the rows when a load failed and there were none to keep (never 'none found'). */
export const RX_LIST_LOAD_FAILED_MESSAGE = 'The prescriptions could not be loaded. Choose Load Rx to try again.';

/** Shown in place of the rows when a load found none. */
export const RX_LIST_EMPTY_MESSAGE = 'No Prescriptions found.';
