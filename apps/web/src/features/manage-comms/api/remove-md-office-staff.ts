import { deletedSchema, manageCommsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** DELETE /api/mdo/v1/md-offices/{id}/staff/{mdStaffId} (our addition): the person stays, only the link goes. */
export const removeMdOfficeStaff = (officeId: string, staffId: string) =>
  withFailureMessage(
    'Failed to update MD office',
    api.request(manageCommsApiPaths.mdOfficeStaffMember(officeId, staffId), {
      method: 'DELETE',
      schema: deletedSchema,
    }),
  );

export function useRemoveMdOfficeStaff(officeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (staffId: string) => removeMdOfficeStaff(officeId, staffId),
    onSuccess: (_result, staffId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: manageCommsKeys.officeStaff(officeId) }),
        queryClient.invalidateQueries({ queryKey: manageCommsKeys.person(staffId) }),
        queryClient.invalidateQueries({ queryKey: manageCommsKeys.staff }),
      ]),
  });
}
