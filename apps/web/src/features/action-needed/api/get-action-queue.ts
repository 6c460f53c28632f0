import { type ActionQueueResponse, actionQueueResponseSchema, apiPaths } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { actionNeededQueryKey } from './get-action-needed.ts';

export interface QueueFilters {
  prescriber?: string | null | undefined;
  practice?: string | null | undefined;
}

/** GET users/{id}/action-queue (issue 22): every open item, most urgent first, with its decision facts. */
export const getActionQueue = (userId: string, filters: QueueFilters, signal?: AbortSignal): Promise<ActionQueueResponse> =>
  api.request(apiPaths.actionQueue(userId), {
    query: {
      ...(filters.prescriber ? { prescriber: filters.prescriber } : {}),
      ...(filters.practice ? { practice: filters.practice } : {}),
    },
    schema: actionQueueResponseSchema,
    signal,
  });

/**
 * Under the Action Needed key, so every action that refreshes the list (the item leaves it) refreshes the
 * queue too. The category is narrowed on the screen: switching it is instant and the counts stay the whole
 * queue's, as on the card view.
 */
export const actionQueueQueryOptions = (userId: string, filters: QueueFilters) =>
  queryOptions({
    queryKey: [
      ...actionNeededQueryKey(userId),
      'queue',
      { prescriber: filters.prescriber ?? null, practice: filters.practice ?? null },
    ] as const,
    queryFn: ({ signal }) => getActionQueue(userId, filters, signal),
    refetchOnWindowFocus: true,
  });

export const useActionQueue = (userId: string, filters: QueueFilters) => useQuery(actionQueueQueryOptions(userId, filters));
