import {
  formatApiDate,
  formatMonthDayTime,
  formatOrderStatus,
  formatPhoneDisplay,
  formatPrescribedDate,
  nextRxListSort,
  RX_LIST_EMPTY_MESSAGE,
  type RxListItem,
  type RxListSort,
  type RxListSortKey,
} from '@hcp/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useRef } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { operationsOrderHref } from '../../../lib/config.ts';
import styles from './rx-list.module.css';

const COLUMNS: { key: RxListSortKey; label: string }[] = [
  { key: 'prescribedDate', label: 'Prescribed Date' },
  { key: 'prescriptionName', label: 'Prescription' },
  { key: 'patientName', label: 'Patient' },
  { key: 'prescriberName', label: 'Prescriber' },
  { key: 'practiceName', label: 'Practice' },
  { key: 'lastProcessedDate', label: 'Order Status' },
];

/** Estimated row height; rows are measured once rendered. */
const ROW_HEIGHT = 88;
/** Up to this many rows are all in the DOM (find-in-page works); longer lists render only what is in view. */
export const VIRTUALIZE_ABOVE = 200;

function Row({ row }: { row: RxListItem }) {
  return (
    <>
      <td>{formatPrescribedDate(row.prescribedDate)}</td>
      <td>
        <div>{row.prescriptionName}</div>
        {row.orderNumber ? (
          <a href={operationsOrderHref(row.orderNumber)} target="_blank" rel="noopener noreferrer">
            Order {row.orderNumber}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : null}
        {row.isWholeSale ? <span className={styles.tag}>Wholesale</span> : null}
      </td>
      <td>
        <div>{row.patientName}</div>
        <div className={styles.muted}>{formatApiDate(row.patientDob)}</div>
      </td>
      <td>
        <div>{row.prescriberName}</div>
        {row.prescriberPhoneNumber ? <div className={styles.muted}>{formatPhoneDisplay(row.prescriberPhoneNumber)}</div> : null}
        {row.prescriberCreatedDate ? (
          <div className={styles.muted}>Added on {formatApiDate(row.prescriberCreatedDate)}</div>
        ) : null}
      </td>
      <td>
        <div>{row.practiceName}</div>
        {row.prescriberSpecialty ? <div className={styles.muted}>{row.prescriberSpecialty}</div> : null}
      </td>
      <td>
        <div>
          {row.pending ? <span className={styles.pending} role="img" aria-label="Pending" title="Pending" /> : null}
          {formatOrderStatus(row.orderStatus, row.price)}
        </div>
        {row.lastProcessedDate ? <div className={styles.muted}>Since {formatMonthDayTime(row.lastProcessedDate)}</div> : null}
      </td>
    </>
  );
}

/**
 * The sortable prescriptions table. Only the rows in view are in the DOM (10,000 rows stay smooth); the
 * sort state is on each header as aria-sort and the header buttons say what a click does.
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
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    // Off for a table drawn whole: enabled, it reads the scroller's size as it mounts, which forces the page's first
    // layout inside React's commit (50 ms of one task at Lighthouse's 4x on a 100-row list, issue 50).
    enabled: virtual,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // Until the container is measured (and where it never is, as in tests), assume a screenful.
    initialRect: { width: 1200, height: 800 },
  });
  const items = virtual ? virtualizer.getVirtualItems() : rows.map((_, index) => ({ index, start: 0, end: 0, key: index }));
  const top = items[0]?.start ?? 0;
  const bottom = virtual ? virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0) : 0;

  return (
    // A scrolling region must be reachable by keyboard to scroll it (WCAG 2.1.1; axe scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll container itself is what keyboard users scroll
    <section ref={scroller} className={styles.scroller} tabIndex={0} aria-label="Prescriptions">
      <table className={styles.table} aria-rowcount={answered.length + 1} aria-busy={isLoading}>
        <caption className="visually-hidden">Prescriptions, sorted by {COLUMNS.find((c) => c.key === sort.key)?.label}</caption>
        <thead>
          <tr aria-rowindex={1}>
            {COLUMNS.map(({ key, label }) => {
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
              <td colSpan={COLUMNS.length} className={styles.state}>
                <Spinner /> Loading prescriptions…
              </td>
            </tr>
          ) : answered.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length} className={styles.state}>
                {emptyMessage}
              </td>
            </tr>
          ) : (
            <>
              {top > 0 ? (
                <tr className={styles.spacer}>
                  <td colSpan={COLUMNS.length} style={{ height: top, padding: 0, border: 0 }} />
                </tr>
              ) : null}
              {items.map((item) => {
                const row = rows[item.index] as RxListItem;
                return (
                  <tr
                    key={row.id}
                    data-index={item.index}
                    ref={virtual ? virtualizer.measureElement : undefined}
                    aria-rowindex={item.index + 2}
                  >
                    <Row row={row} />
                  </tr>
                );
              })}
              {bottom > 0 ? (
                <tr className={styles.spacer}>
                  <td colSpan={COLUMNS.length} style={{ height: bottom, padding: 0, border: 0 }} />
                </tr>
              ) : null}
            </>
          )}
        </tbody>
      </table>
    </section>
  );
}
