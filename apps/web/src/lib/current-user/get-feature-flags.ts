import { apiPaths, type FeatureFlags } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export function getFeatureFlags(): Promise<FeatureFlags> {
  return api.request(apiPaths.featureFlags, { schema: () => import('../boot-schemas.ts').then((m) => m.featureFlagsSchema) });
}

export const featureFlagsQueryOptions = () => queryOptions({ queryKey: ['feature-flags'], queryFn: getFeatureFlags });

export function useFeatureFlags(enabled = true) {
  return useQuery({ ...featureFlagsQueryOptions(), enabled });
}
