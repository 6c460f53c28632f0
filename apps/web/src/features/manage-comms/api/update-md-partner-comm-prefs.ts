import { type MdPartnerCommPrefs, type MdStaff, manageCommsApiPaths, mdStaffSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** PUT /api/mdo/v1/md-partner/{id}/comm-prefs: how an HCP or staff member wants to be contacted. */
export const updateMdPartnerCommPrefs = (id: string, prefs: MdPartnerCommPrefs) =>
  withFailureMessage(
    'Failed to update MD partner',
    api.request(manageCommsApiPaths.mdPartnerCommPrefs(id), { method: 'PUT', body: prefs, schema: mdStaffSchema }),
  );

export function useUpdateMdPartnerCommPrefs(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: MdPartnerCommPrefs) => updateMdPartnerCommPrefs(id, prefs),
    onSuccess: (person: MdStaff) => queryClient.setQueryData(manageCommsKeys.person(id), person),
  });
}
