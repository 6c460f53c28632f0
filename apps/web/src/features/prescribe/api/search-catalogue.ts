import { catalogueResponseSchema, prescribeApiPaths } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/mdo/v1/drug-catalogue?searchText (our design): products by name or NDC. */
export const searchCatalogue = (searchText: string, signal?: AbortSignal) =>
  api.request(prescribeApiPaths.drugCatalogue, { query: { searchText }, schema: catalogueResponseSchema, signal });

export const catalogueQueryOptions = (searchText: string) =>
  queryOptions({
    queryKey: ['drug-catalogue', searchText],
    queryFn: ({ signal }) => searchCatalogue(searchText, signal),
    placeholderData: keepPreviousData,
  });

export const useCatalogue = (searchText: string) =>
  useQuery({ ...catalogueQueryOptions(searchText), enabled: searchText.trim().length >= 2 });
