import { apiPaths } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

/** GET /api/mdo/v1/tenant?brand=<stored choice> (public): the page's brand and both brands. */
export const getTenant = (storedChoice: string | null, signal?: AbortSignal) =>
  api.request(apiPaths.tenant, {
    query: storedChoice ? { brand: storedChoice } : {},
    schema: () => import('../boot-schemas.ts').then((m) => m.tenantResponseSchema),
    auth: false,
    signal,
  });

export const tenantQueryOptions = (storedChoice: string | null) =>
  queryOptions({
    queryKey: ['tenant', storedChoice],
    queryFn: ({ signal }) => getTenant(storedChoice, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useTenant = (storedChoice: string | null) => useQuery(tenantQueryOptions(storedChoice));
