import { isValidPage } from '@hcp/contract';
import { useSearchParams } from 'react-router';

/**
 * The search text and page of a list screen, kept in the URL (?q=&page=) so Back and reload keep them.
 * A new search starts at page 1; a page outside 1..pages is ignored (spec §4 practice list paging).
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const searchText = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  return {
    searchText,
    page,
    search: (text: string) => setParams(text ? { q: text } : {}),
    goToPage: (next: number, pages: number) => {
      if (isValidPage(next, pages)) setParams(searchText ? { q: searchText, page: String(next) } : { page: String(next) });
    },
  };
}
