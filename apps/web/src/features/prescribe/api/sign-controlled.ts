import { epcsApiPaths, epcsPrescribedSchema, epcsSigningSchema, type NewPrescription } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { completeStepUp, type StepUpEntry } from '../../../lib/step-up.ts';

/**
 * POST users/{id}/prescriptions/epcs-signing (issue 48): what a new controlled prescription's signature would cover,
 * after every rule of who may sign it. Nothing is sent.
 */
export const prepareControlledPrescription = (userId: string, body: NewPrescription) =>
  api.request(epcsApiPaths.prescribeEpcsSigning(userId), { method: 'POST', body, schema: epcsSigningSchema });

export const usePrepareControlledPrescription = (userId: string) =>
  useMutation({ mutationFn: (body: NewPrescription) => prepareControlledPrescription(userId, body) });

/** POST epcs-signings/{id}/prescribe: two factors now; the server writes, signs and sends it by eRx. */
export function useSignControlledPrescription(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ signingId, entry }: { signingId: string; entry: StepUpEntry }) =>
      api.request(epcsApiPaths.signEpcsPrescription(signingId), {
        method: 'POST',
        body: { stepUp: await completeStepUp(userId, entry) },
        schema: epcsPrescribedSchema,
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['patients'] }),
        queryClient.invalidateQueries({ queryKey: ['rx-list'] }),
        queryClient.invalidateQueries({ queryKey: ['prescription-draft'] }),
      ]),
  });
}
