import { manageCommsApiPaths, mdStaffSearchResponseSchema, offsetForPage, PAGE_SIZE } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** GET /api/mdo/v1/staff?searchText&offset&limit. */
export const searchStaff = (searchText: string, page: number, limit = PAGE_SIZE, signal?: AbortSignal) =>
  withFailureMessage(
    'Failed to fetch MD staff',
    api.request(manageCommsApiPaths.staffSearch, {
      query: { searchText, offset: offsetForPage(page, limit), limit },
      schema: mdStaffSearchResponseSchema,
      signal,
    }),
  );

export const staffSearchQueryOptions = (searchText: string, page: number, limit = PAGE_SIZE) =>
  queryOptions({
    queryKey: [...manageCommsKeys.staff, 'search', searchText, page, limit],
    queryFn: ({ signal }) => searchStaff(searchText, page, limit, signal),
    placeholderData: keepPreviousData,
  });

export const useStaffSearch = (searchText: string, page: number, options: { limit?: number; enabled?: boolean } = {}) =>
  useQuery({ ...staffSearchQueryOptions(searchText, page, options.limit), enabled: options.enabled ?? true });
