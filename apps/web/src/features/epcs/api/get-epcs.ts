import { epcsApiPaths, epcsOverviewSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const epcsKeys = { all: ['epcs'] as const, overview: (userId: string) => ['epcs', 'overview', userId] as const };

/** GET users/{id}/epcs (issue 48): the caller's DEA registrations, strong factors, and permissions at their practices. */
export const getEpcs = (userId: string, signal?: AbortSignal) =>
  api.request(epcsApiPaths.epcs(userId), { schema: epcsOverviewSchema, signal });

export const epcsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: epcsKeys.overview(userId), queryFn: ({ signal }) => getEpcs(userId, signal) });

export const useEpcs = (userId: string) => useQuery(epcsQueryOptions(userId));
