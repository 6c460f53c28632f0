import { deletedSchema, manageCommsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** DELETE /api/mdo/v1/md-staff/{id}: refused (409) while they have open prescriptions or a portal account. */
export const deleteMdStaff = (id: string) =>
  withFailureMessage(
    'Failed to delete MD staff',
    api.request(manageCommsApiPaths.mdStaff(id), { method: 'DELETE', schema: deletedSchema }),
  );

export function useDeleteMdStaff(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteMdStaff(id),
    // Only the lists: the open screen of the deleted person must not refetch them (404) before it navigates away.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...manageCommsKeys.staff, 'search'] }),
        queryClient.invalidateQueries({ queryKey: [...manageCommsKeys.offices, 'staff'] }),
      ]),
  });
}
