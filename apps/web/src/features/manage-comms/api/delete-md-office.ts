import { apiPaths, deletedSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** DELETE /api/mdo/v1/md-offices/{id}: refused (409) while the practice has open prescriptions or active accounts. */
export const deleteMdOffice = (id: string) =>
  withFailureMessage(
    'Failed to delete MD office',
    api.request(apiPaths.mdOffice(id), { method: 'DELETE', schema: deletedSchema }),
  );

export function useDeleteMdOffice(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteMdOffice(id),
    // Only the lists: the open screen of the deleted practice must not refetch it (404) before it navigates away.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...manageCommsKeys.offices, 'search'] }),
        queryClient.invalidateQueries({ queryKey: [...manageCommsKeys.staff, 'search'] }),
      ]),
  });
}
