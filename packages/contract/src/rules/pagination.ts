/** Pagination (spec §2, §4, §9). Pages are 1-based. */

export const PAGE_SIZE = 25;
/** With this many pages or fewer every page number is shown. */
export const FULL_PAGE_LIST_MAX = 5;
export const PAGE_WINDOW = 2;

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

export function totalPages(total: number, limit = PAGE_SIZE): number {
  if (total <= 0 || limit <= 0) return 0;
  return Math.ceil(total / limit);
}

export function isValidPage(page: number, pages: number): boolean {
  return Number.isInteger(page) && page >= 1 && page <= pages;
}

export function offsetForPage(page: number, limit = PAGE_SIZE): number {
  return Math.max(0, (Math.max(1, Math.trunc(page)) - 1) * limit);
}

/**
 * Page numbers to show (spec §2): all of them up to five pages; otherwise the first, the last and the
 * current page ±2, and an ellipsis wherever numbers are skipped — even one (issue 21 asked for the spec's
 * shape exactly: a lone missing page used to be shown as a number, so the rule read differently per page).
 */
export function pageItems(current: number, pages: number): PageItem[] {
  if (pages <= 0) return [];
  if (pages <= FULL_PAGE_LIST_MAX) return Array.from({ length: pages }, (_, i) => i + 1);
  const page = Math.min(Math.max(1, current), pages);
  const start = Math.max(2, page - PAGE_WINDOW);
  const end = Math.min(pages - 1, page + PAGE_WINDOW);
  const items: PageItem[] = [1];
  if (start > 2) items.push('ellipsis-start');
  for (let p = start; p <= end; p += 1) items.push(p);
  if (end < pages - 1) items.push('ellipsis-end');
  items.push(pages);
  return items;
}

/** 'Showing X-Y of total'; with no rows 'Showing 0-0 of 0'. */
export function rangeLabel(page: number, limit: number, total: number): string {
  if (total <= 0) return 'Showing 0-0 of 0';
  const from = Math.min(offsetForPage(page, limit) + 1, total);
  const to = Math.min(from + limit - 1, total);
  return `Showing ${from}-${to} of ${total}`;
}
