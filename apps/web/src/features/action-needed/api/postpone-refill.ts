import { ACTION_ERROR_LOG_NAMES, actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { usePrescriptionAction } from './use-prescription-action.ts';

export interface PostponeRefillInput {
  prescriptionId: string;
  /** YYYY-MM-DD */
  refillPostponedToDate: string;
  senderName: string;
}

/** POST …/refills-postponed with refillPostponedToDate and senderName. */
export const postponeRefill = ({ prescriptionId, ...body }: PostponeRefillInput) =>
  api.request(apiPaths.refillPostponed(prescriptionId), { method: 'POST', body, schema: actionResultSchema });

export const usePostponeRefill = () => usePrescriptionAction(postponeRefill, ACTION_ERROR_LOG_NAMES.refillPostpone);
