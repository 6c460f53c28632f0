import { coverageApiPaths, coverageResponseSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const coverageKeys = { all: (userId: string) => ['coverage', userId] as const };

/** GET users/{id}/coverage (issue 23): each of the user's practices with who signs, its prescribers and coverages. */
export const getCoverage = (userId: string, signal?: AbortSignal) =>
  api.request(coverageApiPaths.coverage(userId), { schema: coverageResponseSchema, signal });

export const coverageQueryOptions = (userId: string) =>
  queryOptions({ queryKey: coverageKeys.all(userId), queryFn: ({ signal }) => getCoverage(userId, signal) });

export const useCoverage = (userId: string) => useQuery(coverageQueryOptions(userId));
