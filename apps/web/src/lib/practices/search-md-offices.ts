import { apiPaths, mdOfficeSearchResponseSchema, offsetForPage, PAGE_SIZE } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { withFailureMessage } from '../service-error.ts';
import { manageCommsKeys } from './keys.ts';

/** GET /api/mdo/v1/md-offices-search?searchText&offset&limit (spec §5: offset from page and limit). */
export const searchMdOffices = (searchText: string, page: number, limit = PAGE_SIZE, signal?: AbortSignal) =>
  withFailureMessage(
    'Failed to fetch MD offices',
    api.request(apiPaths.mdOfficesSearch, {
      query: { searchText, offset: offsetForPage(page, limit), limit },
      schema: mdOfficeSearchResponseSchema,
      signal,
    }),
  );

export const mdOfficesSearchQueryOptions = (searchText: string, page: number, limit = PAGE_SIZE) =>
  queryOptions({
    queryKey: [...manageCommsKeys.offices, 'search', searchText, page, limit],
    queryFn: ({ signal }) => searchMdOffices(searchText, page, limit, signal),
    placeholderData: keepPreviousData,
  });

export const useMdOfficesSearch = (searchText: string, page: number, limit = PAGE_SIZE) =>
  useQuery(mdOfficesSearchQueryOptions(searchText, page, limit));
