import { isValidPage } from '@hcp/contract';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

function paramsFor(text: string, page: number): Record<string, string> {
  return { ...(text ? { q: text } : {}), ...(page > 1 ? { page: String(page) } : {}) };
}

/** A whole page number from the URL; anything else (0, -1, 2.5, 'abc', missing) is page 1. */
function pageParam(raw: string | null): number {
  const page = Number(raw ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * The search text and page of a list screen, kept in the URL (?q=&page=) so Back and reload keep them.
 * A new search starts at page 1; a page outside 1..pages is refused (spec §4 practice list paging): a
 * click never goes there, and a typed or stale address (?page=9 of 2) is replaced by the last page once
 * the total is known, instead of showing an empty list as if nothing matched.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const searchText = params.get('q') ?? '';
  const page = pageParam(params.get('page'));
  return {
    searchText,
    page,
    search: (text: string) => setParams(text ? { q: text } : {}),
    goToPage: (next: number, pages: number) => {
      if (isValidPage(next, pages)) setParams(paramsFor(searchText, next));
    },
  };
}

/**
 * Replaces a page past the last (?page=9 of 2) by the last page once an answer tells how many there are.
 * `pages` is undefined while no answer has come.
 */
export function useKeepPageInRange(pages: number | undefined) {
  const [params, setParams] = useSearchParams();
  const page = pageParam(params.get('page'));
  const last = Math.max(1, pages ?? 1);
  const outside = pages !== undefined && page > last;
  const searchText = params.get('q') ?? '';
  useEffect(() => {
    if (outside) setParams(paramsFor(searchText, last), { replace: true });
  }, [outside, searchText, last, setParams]);
}
