import { type MdStaff, type MdStaffUpdate, manageCommsApiPaths, mdStaffSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** PUT /api/mdo/v1/md-staff/{id}: the details, or the contact addresses. */
export const updateMdStaff = (id: string, body: MdStaffUpdate) =>
  withFailureMessage(
    'Failed to update MD staff',
    api.request(manageCommsApiPaths.mdStaff(id), { method: 'PUT', body, schema: mdStaffSchema }),
  );

export function useUpdateMdStaff(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MdStaffUpdate) => updateMdStaff(id, body),
    onSuccess: (person: MdStaff) => {
      queryClient.setQueryData(manageCommsKeys.person(id), person);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: [...manageCommsKeys.staff, 'search'] }),
        queryClient.invalidateQueries({ queryKey: [...manageCommsKeys.offices, 'staff'] }),
      ]);
    },
  });
}
