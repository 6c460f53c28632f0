/** TanStack Query defaults of spec §9: stale after 300 s, kept 1800 s. */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, SessionExpiredError } from './api-client.ts';
import { ServiceError } from './service-error.ts';

/** The HTTP status behind a failed call, also when a service wrapped it with its §8 message. */
const statusOf = (error: unknown): number | null =>
  error instanceof ApiError ? error.status : error instanceof ServiceError ? error.status : null;

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
        retry: (count, error) => {
          const status = statusOf(error);
          return count < 2 && !(status !== null && status >= 400 && status < 500);
        },
      },
      mutations: { retry: false },
    },
  });
}
