import { actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { usePrescriptionAction } from './use-prescription-action.ts';

export interface ResolvePhoneExceptionsInput {
  prescriptionIds: string[];
  updates: { patientId: string; phoneNumber: string }[];
}

/** POST /api/mdo/v1/patient-numbers/resolve-exceptions with patientPhoneNumberUpdates. */
export const resolvePhoneExceptions = ({ updates }: ResolvePhoneExceptionsInput) =>
  api.request(apiPaths.resolvePhoneExceptions, {
    method: 'POST',
    body: { patientPhoneNumberUpdates: updates },
    schema: actionResultSchema,
  });

export const useResolvePhoneExceptions = () => usePrescriptionAction(resolvePhoneExceptions, 'Phone Exception Resolve Error');
