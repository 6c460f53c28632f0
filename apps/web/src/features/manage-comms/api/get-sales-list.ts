import { manageCommsApiPaths, salesListSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** GET /api/mdo/v1/sales-list: the provider's sales representatives a practice can be assigned to. */
export const getSalesList = (signal?: AbortSignal) =>
  withFailureMessage(
    'Failed to fetch MD offices',
    api.request(manageCommsApiPaths.salesList, { schema: salesListSchema, signal }),
  );

export const salesListQueryOptions = () =>
  queryOptions({ queryKey: manageCommsKeys.salesList, queryFn: ({ signal }) => getSalesList(signal) });

export const useSalesList = () => useQuery(salesListQueryOptions());
