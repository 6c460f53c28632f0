import { apiPaths, type RxListFilter, rxListResponseSchema } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface RxListParams {
  /** YYYY-MM-DD, both days included. */
  startdate: string;
  enddate: string;
  selectedFilter: RxListFilter;
}

/** GET /api/mdo/v1/users/{userId}/rx-list (spec §7). */
export const getRxList = (userId: string, params: RxListParams, signal?: AbortSignal) =>
  api.request(apiPaths.rxList(userId), { query: { ...params }, schema: rxListResponseSchema, signal });

/**
 * Keyed by user and parameters, so a change of user or a new 'Load Rx' loads again; `loadCount` makes
 * 'Load Rx' with unchanged parameters load again too. The previous rows stay while loading (and after a
 * failed load: spec §4).
 */
export const rxListQueryOptions = (userId: string, params: RxListParams, loadCount: number) =>
  queryOptions({
    queryKey: ['rx-list', userId, params, loadCount],
    queryFn: ({ signal }) => getRxList(userId, params, signal),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

export const useRxList = (userId: string, params: RxListParams, loadCount: number) =>
  useQuery(rxListQueryOptions(userId, params, loadCount));
