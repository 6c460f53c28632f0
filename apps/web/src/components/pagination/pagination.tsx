import { pageItems, rangeLabel, totalPages } from '@hcp/contract';
import styles from './pagination.module.css';

export interface PaginationProps {
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  /** Names the navigation landmark, e.g. 'Practices pages'. */
  label?: string;
}

/** 'Showing X-Y of total', previous/next and page numbers per the contract's pageItems rule. */
export function Pagination({ page, limit, total, onPageChange, label = 'Pagination' }: PaginationProps) {
  const pages = totalPages(total, limit);
  if (pages === 0) return null;
  const go = (target: number) => {
    if (target >= 1 && target <= pages && target !== page) onPageChange(target);
  };
  return (
    <nav className={styles.pagination} aria-label={label}>
      <p className={styles.range} aria-live="polite">
        {rangeLabel(page, limit, total)}
      </p>
      <ul className={styles.pages}>
        <li>
          <button
            type="button"
            className={styles.arrow}
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => go(page - 1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
        </li>
        {pageItems(page, pages).map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                className={styles.page}
                aria-label={`Page ${item}`}
                aria-current={item === page ? 'page' : undefined}
                onClick={() => go(item)}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} className={styles.ellipsis} aria-hidden="true">
              …
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            className={styles.arrow}
            aria-label="Next page"
            disabled={page >= pages}
            onClick={() => go(page + 1)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
