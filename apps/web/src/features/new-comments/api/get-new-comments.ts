import { apiPaths, isDoctorListSearchResponse } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, guardCheck } from '../../../lib/api-client.ts';
import { reportError } from '../../../lib/error-reporting.ts';

/** Spec §9: the doctor comments query is stale after 60 s and kept 300 s. */
export const COMMENTS_STALE_MS = 60_000;
export const COMMENTS_GC_MS = 300_000;

/**
 * GET /api/mdo/v2/users/{userId}/doctor-list-search?newComments=true. Spec §8: a failed comments fetch is
 * reported and read as an empty list (the tab then hides; nothing breaks).
 */
export async function getNewComments(userId: string, signal?: AbortSignal) {
  try {
    return await api.request(apiPaths.doctorListSearch(userId), {
      query: { newComments: true },
      // The navigation's count on every signed-in screen: a zod-free guard (decision 0064).
      schema: guardCheck(isDoctorListSearchResponse),
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError' || (error as Error).name === 'SessionExpiredError') throw error;
    reportError('New Comments Fetch Error', { error });
    return { doctors: [], total: 0 };
  }
}

export const newCommentsQueryKey = (userId: string) => ['new-comments', userId] as const;

export const newCommentsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: newCommentsQueryKey(userId),
    queryFn: ({ signal }) => getNewComments(userId, signal),
    staleTime: COMMENTS_STALE_MS,
    gcTime: COMMENTS_GC_MS,
  });

export const useNewComments = (userId: string, options: { enabled?: boolean } = {}) =>
  useQuery({ ...newCommentsQueryOptions(userId), enabled: options.enabled ?? true });
