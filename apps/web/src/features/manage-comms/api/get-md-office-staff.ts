import { manageCommsApiPaths, officeStaffListSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** GET /api/mdo/v1/md-offices/{id}/staff. */
export const getMdOfficeStaff = (id: string, signal?: AbortSignal) =>
  withFailureMessage(
    'Failed to get MD office staff',
    api.request(manageCommsApiPaths.mdOfficeStaff(id), { schema: officeStaffListSchema, signal }),
  );

export const mdOfficeStaffQueryOptions = (id: string) =>
  queryOptions({ queryKey: manageCommsKeys.officeStaff(id), queryFn: ({ signal }) => getMdOfficeStaff(id, signal) });

export const useMdOfficeStaff = (id: string) => useQuery(mdOfficeStaffQueryOptions(id));
