import { apiPaths, type FeatureFlags } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export function getFeatureFlags(): Promise<FeatureFlags> {
  // A zod-free guard: the signed-in shell waits for this answer (decision 0043).
  return api.request(apiPaths.featureFlags, { schema: () => import('../boot-guards.ts').then((m) => m.featureFlagsCheck) });
}

export const featureFlagsQueryOptions = () => queryOptions({ queryKey: ['feature-flags'], queryFn: getFeatureFlags });

export function useFeatureFlags(enabled = true) {
  return useQuery({ ...featureFlagsQueryOptions(), enabled });
}
