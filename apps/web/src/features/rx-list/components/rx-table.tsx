import { nextRxListSort, RX_LIST_EMPTY_MESSAGE, type RxListItem, type RxListSort } from '@hcp/contract';
import { lazy, Suspense, useDeferredValue, useRef } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import styles from './rx-list.module.css';
import { RX_COLUMNS, RxRows } from './rx-row.tsx';

/** Up to this many rows are all in the DOM (find-in-page works); longer lists render only what is in view. */
export const VIRTUALIZE_ABOVE = 200;
/** The rows a long list shows while its virtualizer loads: a screenful and the next, as the virtualizer draws. */
const ROWS_WHILE_LOADING = 20;

// Only a long list needs it: the default 100-row list does not download it (issue 50).
const RxVirtualRows = lazy(() => import('./rx-virtual-rows.tsx').then((module) => ({ default: module.RxVirtualRows })));

/**
 * The sortable prescriptions table: up to 200 rows drawn whole, a longer list only the rows in view (10,000 rows stay
 * smooth); the sort state is on each header as aria-sort and the header buttons say what a click does.
 */
export function RxTable({
  rows: answered,
  sort,
  onSort,
  isLoading,
  emptyMessage = RX_LIST_EMPTY_MESSAGE,
}: {
  rows: readonly RxListItem[];
  sort: RxListSort;
  onSort: (sort: RxListSort) => void;
  isLoading: boolean;
  /** What an empty table says; a failed first load must not read as 'No Prescriptions found.'. */
  emptyMessage?: string;
}) {
  const scroller = useRef<HTMLElement>(null);
  // The rows draw in a transition (issue 21): an answer arrives through TanStack Query's external store, which
  // React renders in one blocking task (200 rows froze a phone for half a second); deferred, they draw in slices.
  // Loading and empty read the answer itself, so a list that is drawing never says 'No Prescriptions found.'.
  // Rows at hand when the table opens (Back to the list) draw at once, so the scroll place is restored.
  const rows = useDeferredValue(answered);
  const virtual = rows.length > VIRTUALIZE_ABOVE;

  return (
    // A scrolling region must be reachable by keyboard to scroll it (WCAG 2.1.1; axe scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll container itself is what keyboard users scroll
    <section ref={scroller} className={styles.scroller} tabIndex={0} aria-label="Prescriptions">
      <table className={styles.table} aria-rowcount={answered.length + 1} aria-busy={isLoading}>
        <caption className="visually-hidden">
          Prescriptions, sorted by {RX_COLUMNS.find((c) => c.key === sort.key)?.label}
        </caption>
        <thead>
          <tr aria-rowindex={1}>
            {RX_COLUMNS.map(({ key, label }) => {
              const active = sort.key === key;
              const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
              return (
                <th key={key} scope="col" aria-sort={ariaSort}>
                  <button type="button" className={styles.sortButton} onClick={() => onSort(nextRxListSort(sort, key))}>
                    {label}
                    <span aria-hidden="true" className={styles.sortMark}>
                      {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {isLoading && answered.length === 0 ? (
            <tr>
              <td colSpan={RX_COLUMNS.length} className={styles.state}>
                <Spinner /> Loading prescriptions…
              </td>
            </tr>
          ) : answered.length === 0 ? (
            <tr>
              <td colSpan={RX_COLUMNS.length} className={styles.state}>
                {emptyMessage}
              </td>
            </tr>
          ) : virtual ? (
            <Suspense fallback={<RxRows rows={rows.slice(0, ROWS_WHILE_LOADING)} />}>
              <RxVirtualRows rows={rows} scroller={scroller} />
            </Suspense>
          ) : (
            <RxRows rows={rows} />
          )}
        </tbody>
      </table>
    </section>
  );
}
