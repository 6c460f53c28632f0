import { apiPaths, isTenantResponse } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, guardCheck } from '../api-client.ts';

/** GET /api/mdo/v1/tenant?brand=<stored choice> (public): the page's brand and both brands. */
export const getTenant = (storedChoice: string | null, signal?: AbortSignal) =>
  api.request(apiPaths.tenant, {
    query: storedChoice ? { brand: storedChoice } : {},
    // Checked without zod: the brand is read on every first screen, the sign-in page included (decision 0043).
    schema: guardCheck(isTenantResponse),
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
