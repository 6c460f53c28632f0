import { apiPaths, mdOfficeSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { withFailureMessage } from '../service-error.ts';
import { manageCommsKeys } from './keys.ts';

/** GET /api/mdo/v1/md-offices/{id}. */
export const getMdOffice = (id: string, signal?: AbortSignal) =>
  withFailureMessage('Failed to get MD office', api.request(apiPaths.mdOffice(id), { schema: mdOfficeSchema, signal }));

export const mdOfficeQueryOptions = (id: string) =>
  queryOptions({ queryKey: manageCommsKeys.office(id), queryFn: ({ signal }) => getMdOffice(id, signal) });

export const useMdOffice = (id: string) => useQuery(mdOfficeQueryOptions(id));
