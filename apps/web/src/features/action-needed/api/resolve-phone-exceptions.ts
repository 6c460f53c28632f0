import { actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { savesSendChoice, usePrescriptionAction } from './use-prescription-action.ts';

export interface ResolvePhoneExceptionsInput {
  prescriptionIds: string[];
  updates: { patientId: string; phoneNumber: string }[];
  /** 'Don't ask me again before sending' ticked with this call. */
  skipSendConfirmation?: true;
}

/** POST /api/mdo/v1/patient-numbers/resolve-exceptions with patientPhoneNumberUpdates. */
export const resolvePhoneExceptions = ({ updates, skipSendConfirmation }: ResolvePhoneExceptionsInput) =>
  api.request(apiPaths.resolvePhoneExceptions, {
    method: 'POST',
    body: { patientPhoneNumberUpdates: updates, ...(skipSendConfirmation ? { skipSendConfirmation } : {}) },
    schema: actionResultSchema,
  });

export const useResolvePhoneExceptions = () =>
  usePrescriptionAction(resolvePhoneExceptions, 'Phone Exception Resolve Error', savesSendChoice);
