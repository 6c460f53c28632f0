/** Rx list sorting (spec §4): default practiceName ascending; case-insensitive except the two date columns. */

export const RX_LIST_SORT_KEYS = [
  'prescribedDate',
  'prescriptionName',
  'patientName',
  'prescriberName',
  'practiceName',
  'lastProcessedDate',
] as const;
export type RxListSortKey = (typeof RX_LIST_SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';
export interface RxListSort {
  key: RxListSortKey;
  direction: SortDirection;
}

export const DEFAULT_RX_LIST_SORT: RxListSort = { key: 'practiceName', direction: 'asc' };
const DATE_KEYS: ReadonlySet<RxListSortKey> = new Set(['prescribedDate', 'lastProcessedDate']);

/** Clicking the active column toggles the direction; another column starts ascending. */
export function nextRxListSort(current: RxListSort, clicked: RxListSortKey): RxListSort {
  if (current.key === clicked) return { key: clicked, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key: clicked, direction: 'asc' };
}

type Row = Partial<Record<RxListSortKey, string | null>>;

/**
 * Comparator for rows. Dates arrive as 'YYYY-MM-DD HH:mm:ssZ' (all UTC), so plain string order is time order.
 * Empty values sort last in both directions: a missing date is never "the newest".
 */
export function compareRxRows(sort: RxListSort): (a: Row, b: Row) => number {
  const factor = sort.direction === 'asc' ? 1 : -1;
  const isDate = DATE_KEYS.has(sort.key);
  return (a, b) => {
    const left = a[sort.key] ?? '';
    const right = b[sort.key] ?? '';
    if (left === '' || right === '') return left === right ? 0 : left === '' ? 1 : -1;
    if (isDate) return factor * (left < right ? -1 : left > right ? 1 : 0);
    const l = left.toLowerCase();
    const r = right.toLowerCase();
    return factor * (l < r ? -1 : l > r ? 1 : 0);
  };
}

export function sortRxRows<T extends Row>(rows: readonly T[], sort: RxListSort = DEFAULT_RX_LIST_SORT): T[] {
  return [...rows].sort(compareRxRows(sort));
}
