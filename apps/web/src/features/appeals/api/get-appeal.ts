import { type Appeal, appealSchema, appealsApiPaths } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { appealHeaders } from './appeal-session.ts';

/** GET appeal/{id} (our addition): the appeal again after a reload, with this tab's appeal token. */
export const getAppeal = async (appealId: string, signal?: AbortSignal): Promise<Appeal> =>
  api.request(appealsApiPaths.appeal(appealId), {
    auth: false,
    headers: await appealHeaders(appealId),
    schema: appealSchema,
    signal,
  });

export const appealQueryKey = (appealId: string) => ['appeal', appealId] as const;

export const appealQueryOptions = (appealId: string) =>
  queryOptions({
    queryKey: appealQueryKey(appealId),
    queryFn: ({ signal }) => getAppeal(appealId, signal),
    // The form is the only writer; refetching on focus would fight the prescriber's typing.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });

export const useAppeal = (appealId: string) => useQuery(appealQueryOptions(appealId));
