import { type AddOfficeStaff, manageCommsApiPaths, mdStaffSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** POST /api/mdo/v1/md-offices/{id}/staff: add an existing person, or create a new one in the practice. */
export const addMdOfficeStaff = (officeId: string, body: AddOfficeStaff) =>
  withFailureMessage(
    'Failed to create MD staff',
    api.request(manageCommsApiPaths.mdOfficeStaff(officeId), { method: 'POST', body, schema: mdStaffSchema }),
  );

export function useAddMdOfficeStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ officeId, body }: { officeId: string; body: AddOfficeStaff }) => addMdOfficeStaff(officeId, body),
    onSuccess: (person, { officeId }) => {
      queryClient.setQueryData(manageCommsKeys.person(person.id), person);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: manageCommsKeys.officeStaff(officeId) }),
        queryClient.invalidateQueries({ queryKey: manageCommsKeys.staff }),
        queryClient.invalidateQueries({ queryKey: manageCommsKeys.offices }),
      ]);
    },
  });
}
