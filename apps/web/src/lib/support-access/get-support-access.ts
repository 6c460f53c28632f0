/**
 * GET users/{id}/support-access (decision 0020): the provider user's open read-only window, if any. The
 * shell's banner and the clinical screens read it, so it lives below the features.
 */
import { apiPaths, isSupportAccessState } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, guardCheck } from '../api-client.ts';

export const supportAccessKeys = { state: (userId: string) => ['users', userId, 'support-access'] as const };

export const getSupportAccess = (userId: string, signal?: AbortSignal) =>
  api.request(apiPaths.supportAccess(userId), { schema: guardCheck(isSupportAccessState), signal });

export const supportAccessQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: supportAccessKeys.state(userId),
    queryFn: ({ signal }) => getSupportAccess(userId, signal),
    // The window closes by itself: look again each minute so the banner and the data follow it.
    refetchInterval: 60_000,
    staleTime: 30_000,
  });

/** Only the provider's users have support access; for anyone else the query does not run. */
export function useSupportAccess(userId: string, enabled: boolean) {
  return useQuery({ ...supportAccessQueryOptions(userId), enabled: enabled && userId !== '' });
}
