import { apiPaths, commentThreadSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { COMMENTS_GC_MS, COMMENTS_STALE_MS } from './get-new-comments.ts';

/** GET /api/mdo/v1/patients/{id}/all-rx-comment: the thread, oldest first. */
export const getCommentThread = (patientId: string, signal?: AbortSignal) =>
  api.request(apiPaths.allRxComments(patientId), { query: { offset: 0, limit: 200 }, schema: commentThreadSchema, signal });

export const commentThreadQueryKey = (patientId: string) => ['comments', patientId] as const;

export const commentThreadQueryOptions = (patientId: string) =>
  queryOptions({
    queryKey: commentThreadQueryKey(patientId),
    queryFn: ({ signal }) => getCommentThread(patientId, signal),
    staleTime: COMMENTS_STALE_MS,
    gcTime: COMMENTS_GC_MS,
  });

export const useCommentThread = (patientId: string) => useQuery(commentThreadQueryOptions(patientId));
