/** TanStack Query defaults of spec §9: stale after 300 s, kept 1800 s. */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, SessionExpiredError } from './api-client.ts';

export const QUERY_STALE_MS = 300_000;
export const QUERY_GC_MS = 1_800_000;

export function createQueryClient(onSessionExpired: () => void): QueryClient {
  const onError = (error: unknown) => {
    if (error instanceof SessionExpiredError) onSessionExpired();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_MS,
        gcTime: QUERY_GC_MS,
        // A 4xx will not change on retry; only network and 5xx failures are retried.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}
