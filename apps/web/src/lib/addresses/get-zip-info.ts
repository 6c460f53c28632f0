import { apiPaths, zipInfoSchema } from '@hcp/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { withFailureMessage } from '../service-error.ts';

/** GET /api/mdo/v1/zip-info/{zip}: city and state of a 5-digit ZIP (404 when unknown). */
export const getZipInfo = (zip: string) =>
  withFailureMessage('Failed to get zip info', api.request(apiPaths.zipInfo(zip.slice(0, 5)), { schema: zipInfoSchema }));

/** ZIPs do not move: one answer per ZIP is kept for the session. */
export const zipInfoQueryOptions = (zip: string) =>
  queryOptions({ queryKey: ['zip-info', zip.slice(0, 5)], queryFn: () => getZipInfo(zip), staleTime: Number.POSITIVE_INFINITY });
