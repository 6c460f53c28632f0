import { apiPaths, isRxListResponse, type RxListFilter } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, guardCheck } from '../../../lib/api-client.ts';

export interface RxListParams {
  /** YYYY-MM-DD, both days included. */
  startdate: string;
  enddate: string;
  selectedFilter: RxListFilter;
}

/**
 * GET /api/mdo/v1/users/{userId}/rx-list (spec §7). Checked by a zod-free guard held to the schema by a property
 * test: up to 10,000 rows, and a landing screen that draws with no zod (decision 0064).
 */
export const getRxList = (userId: string, params: RxListParams, signal?: AbortSignal) =>
  api.request(apiPaths.rxList(userId), { query: { ...params }, schema: guardCheck(isRxListResponse), signal });

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
