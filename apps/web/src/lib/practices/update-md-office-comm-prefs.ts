import { apiPaths, type MdOffice, type MdOfficeCommPrefs, mdOfficeSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { withFailureMessage } from '../service-error.ts';
import { manageCommsKeys } from './keys.ts';

/** PUT /api/mdo/v1/md-offices/{id}/comm-prefs. */
export const updateMdOfficeCommPrefs = (id: string, prefs: MdOfficeCommPrefs) =>
  withFailureMessage(
    'Failed to update MD office preferences',
    api.request(apiPaths.mdOfficeCommPrefs(id), { method: 'PUT', body: prefs, schema: mdOfficeSchema }),
  );

export function useUpdateMdOfficeCommPrefs(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: MdOfficeCommPrefs) => updateMdOfficeCommPrefs(id, prefs),
    onSuccess: (office: MdOffice) => {
      queryClient.setQueryData(manageCommsKeys.office(id), office);
      return queryClient.invalidateQueries({ queryKey: manageCommsKeys.offices });
    },
  });
}
