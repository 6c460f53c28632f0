import type { ReactNode } from 'react';
import { Pagination, type PaginationProps } from '../pagination/pagination.tsx';
import { Spinner } from '../spinner.tsx';
import styles from './table.module.css';

export const DEFAULT_EMPTY_MESSAGE = 'No data found.';

export interface Column<Row> {
  key: string;
  header: ReactNode;
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
 * The generic table of spec §2: a real <table>, an optional actions column, a loading row, an empty
 * message (default 'No data found.') and pagination that is hidden when there is no data.
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
  return (
    <div className={styles.wrapper}>
      <div className={styles.scroller}>
        <table className={styles.table} aria-busy={isLoading || undefined}>
          <caption className={hideCaption ? 'visually-hidden' : styles.caption}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" aria-sort={column.ariaSort}>
                  {column.header}
                  {column.headerExtra}
                </th>
              ))}
              {actions ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {isLoading ? (
              <tr className={styles.statusRow}>
                <td colSpan={span}>
                  <span role="status" className={styles.loading}>
                    <Spinner />
                    Loading…
                  </span>
                </td>
              </tr>
            ) : null}
            {!isLoading && !hasData ? (
              <tr className={styles.statusRow}>
                <td colSpan={span}>{emptyMessage}</td>
              </tr>
            ) : null}
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.key}>{column.cell(row)}</td>
                ))}
                {actions ? <td className={styles.actions}>{actions(row)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pagination && hasData ? <Pagination {...pagination} /> : null}
    </div>
  );
}
