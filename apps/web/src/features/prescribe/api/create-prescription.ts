import { createdPrescriptionSchema, type NewPrescription, prescribeApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /api/mdo/v1/users/{id}/prescriptions: created, sent by the office's eRx or fax preference. */
export const createPrescription = (userId: string, body: NewPrescription) =>
  api.request(prescribeApiPaths.createPrescription(userId), { method: 'POST', body, schema: createdPrescriptionSchema });

export function useCreatePrescription(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewPrescription) => createPrescription(userId, body),
    // The patient's detail and the Rx list now have one more prescription; the draft is gone.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['patients'] }),
        queryClient.invalidateQueries({ queryKey: ['rx-list'] }),
        queryClient.invalidateQueries({ queryKey: ['prescription-draft'] }),
      ]),
  });
}
