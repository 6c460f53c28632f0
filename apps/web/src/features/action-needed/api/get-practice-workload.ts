import { apiPaths, offsetForPage, PAGE_SIZE, practiceWorkloadResponseSchema } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET users/{id}/practice-workload (decision 0020): what waits at each practice, counts only, busiest first. */
export const getPracticeWorkload = (userId: string, searchText: string, page: number, signal?: AbortSignal) =>
  api.request(apiPaths.practiceWorkload(userId), {
    query: { searchText, offset: offsetForPage(page), limit: PAGE_SIZE },
    schema: practiceWorkloadResponseSchema,
    signal,
  });

export const practiceWorkloadQueryOptions = (userId: string, searchText: string, page: number) =>
  queryOptions({
    queryKey: ['users', userId, 'practice-workload', searchText, page],
    queryFn: ({ signal }) => getPracticeWorkload(userId, searchText, page, signal),
    placeholderData: keepPreviousData,
  });

export const usePracticeWorkload = (userId: string, searchText: string, page: number) =>
  useQuery(practiceWorkloadQueryOptions(userId, searchText, page));
