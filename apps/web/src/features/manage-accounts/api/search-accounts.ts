import { accountSearchResponseSchema, accountsApiPaths, offsetForPage, PAGE_SIZE } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const accountsKeys = { all: ['accounts'] as const };

/** GET /api/mdo/v1/accounts?searchText&offset&limit (our design, admins only). */
export const searchAccounts = (searchText: string, page: number, signal?: AbortSignal) =>
  api.request(accountsApiPaths.accounts, {
    query: { searchText, offset: offsetForPage(page), limit: PAGE_SIZE },
    schema: accountSearchResponseSchema,
    signal,
  });

export const accountsQueryOptions = (searchText: string, page: number) =>
  queryOptions({
    queryKey: [...accountsKeys.all, searchText, page],
    queryFn: ({ signal }) => searchAccounts(searchText, page, signal),
    placeholderData: keepPreviousData,
  });

export const useAccounts = (searchText: string, page: number) => useQuery(accountsQueryOptions(searchText, page));
