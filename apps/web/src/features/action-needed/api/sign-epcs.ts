import { ACTION_ERROR_LOG_NAMES, epcsApiPaths, epcsSignedSchema } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { completeStepUp, type StepUpEntry } from '../../../lib/step-up.ts';
import { usePrescriptionAction } from './use-prescription-action.ts';

export interface SignEpcsInput {
  prescriptionId: string;
  signingId: string;
  userId: string;
  entry: StepUpEntry;
}

/** POST epcs-signings/{id}/sign: two factors now, then the server signs what was shown and sends it by eRx. */
export const signEpcs = async ({ signingId, userId, entry }: SignEpcsInput) =>
  api.request(epcsApiPaths.signEpcs(signingId), {
    method: 'POST',
    body: { stepUp: await completeStepUp(userId, entry) },
    schema: epcsSignedSchema,
  });

export const useSignEpcs = () => usePrescriptionAction(signEpcs, ACTION_ERROR_LOG_NAMES.epcsSign);
