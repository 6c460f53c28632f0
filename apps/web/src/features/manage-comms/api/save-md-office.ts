import { apiPaths, type MdOffice, type MdOfficeInput, manageCommsApiPaths, mdOfficeSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { manageCommsKeys } from '../../../lib/practices/keys.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** POST /api/mdo/v1/md-offices (create) or PUT /api/mdo/v1/md-offices/{id} (edit details). */
export const saveMdOffice = (id: string | null, input: MdOfficeInput) =>
  id
    ? withFailureMessage(
        'Failed to update MD office',
        api.request(apiPaths.mdOffice(id), { method: 'PUT', body: input, schema: mdOfficeSchema }),
      )
    : withFailureMessage(
        'Failed to create MD office',
        api.request(manageCommsApiPaths.mdOffices, { method: 'POST', body: input, schema: mdOfficeSchema }),
      );

export function useSaveMdOffice(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MdOfficeInput) => saveMdOffice(id, input),
    onSuccess: (office: MdOffice) => {
      queryClient.setQueryData(manageCommsKeys.office(office.id), office);
      return queryClient.invalidateQueries({ queryKey: manageCommsKeys.offices });
    },
  });
}
