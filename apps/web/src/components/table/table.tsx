import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Pagination, type PaginationProps } from '../pagination/pagination.tsx';
import { Spinner } from '../spinner.tsx';
import styles from './table.module.css';

export const DEFAULT_EMPTY_MESSAGE = 'No data found.';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  /** The header as words, shown before each value when a phone stacks the rows; defaults to a string `header`. */
  label?: string;
  cell: (row: Row) => ReactNode;
  /** Rendered in the header cell after the label, e.g. a sort button. */
  headerExtra?: ReactNode;
  ariaSort?: 'ascending' | 'descending' | 'none';
}

export interface TableProps<Row> {
  /** Names the table for screen readers (rendered as its caption). */
  caption: string;
  hideCaption?: boolean;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  isLoading?: boolean;
  emptyMessage?: string;
  /** Optional actions column (e.g. an 'Open' link), labelled 'Actions'. */
  actions?: (row: Row) => ReactNode;
  pagination?: PaginationProps;
}

/**
 * Whether the element's content is wider than its box: a table that scrolls sideways must be reachable by keyboard
 * (WCAG 2.1.1; axe scrollable-region-focusable), one that fits must not add a Tab stop.
 */
function useOverflowing() {
  const ref = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () => setOverflowing(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    check();
    return () => observer.disconnect();
  }, []);
  return { ref, overflowing };
}

const labelOf = <Row,>(column: Column<Row>) => column.label ?? (typeof column.header === 'string' ? column.header : '');

/**
 * The generic table of spec §2: a real <table>, an optional actions column, a loading row, an empty
 * message (default 'No data found.') and pagination that is hidden when there is no data. On a phone (issue 47) the
 * rows stack, each value after its header's words (`data-label`), so nothing and no action hides in a sideways
 * scroll; the roles are spelled out because a table laid out as blocks loses them in some screen readers. A wider
 * table that still does not fit scrolls in a region that takes focus, with a visible cue.
 */
export function Table<Row>({
  caption,
  hideCaption = false,
  columns,
  rows,
  rowKey,
  isLoading = false,
  emptyMessage = DEFAULT_EMPTY_MESSAGE,
  actions,
  pagination,
}: TableProps<Row>) {
  const span = columns.length + (actions ? 1 : 0);
  const hasData = rows.length > 0;
  const { ref, overflowing } = useOverflowing();
  return (
    <div className={styles.wrapper}>
      <div
        ref={ref}
        className={styles.scroller}
        {...(overflowing ? { tabIndex: 0, role: 'region', 'aria-label': `${caption} (scrolls sideways)` } : {})}
      >
        {/* biome-ignore-start lint/a11y/noRedundantRoles: stacked on a phone (display: block), the roles must stay */}
        <table role="table" className={styles.table} aria-busy={isLoading || undefined}>
          <caption className={hideCaption ? 'visually-hidden' : styles.caption}>{caption}</caption>
          <thead role="rowgroup">
            <tr role="row">
              {columns.map((column) => (
                <th key={column.key} role="columnheader" scope="col" aria-sort={column.ariaSort}>
                  {column.header}
                  {column.headerExtra}
                </th>
              ))}
              {actions ? (
                <th role="columnheader" scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody role="rowgroup">
            {isLoading ? (
              <tr role="row" className={styles.statusRow}>
                <td role="cell" colSpan={span}>
                  <span role="status" className={styles.loading}>
                    <Spinner />
                    Loading…
                  </span>
                </td>
              </tr>
            ) : null}
            {!isLoading && !hasData ? (
              <tr role="row" className={styles.statusRow}>
                <td role="cell" colSpan={span}>
                  {emptyMessage}
                </td>
              </tr>
            ) : null}
            {rows.map((row) => (
              <tr role="row" key={rowKey(row)}>
                {columns.map((column) => (
                  <td role="cell" key={column.key} data-label={labelOf(column)}>
                    {column.cell(row)}
                  </td>
                ))}
                {actions ? (
                  <td role="cell" className={styles.actions}>
                    {actions(row)}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {/* biome-ignore-end lint/a11y/noRedundantRoles: see above */}
      </div>
      {pagination && hasData ? <Pagination {...pagination} /> : null}
    </div>
  );
}
