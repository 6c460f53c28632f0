import { manageCommsApiPaths, mdStaffSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** GET /api/mdo/v1/staff/{id}. */
export const getStaff = (id: string, signal?: AbortSignal) =>
  withFailureMessage('Failed to get MD staff', api.request(manageCommsApiPaths.staff(id), { schema: mdStaffSchema, signal }));

export const staffQueryOptions = (id: string) =>
  queryOptions({ queryKey: manageCommsKeys.person(id), queryFn: ({ signal }) => getStaff(id, signal) });

export const useStaff = (id: string) => useQuery(staffQueryOptions(id));
