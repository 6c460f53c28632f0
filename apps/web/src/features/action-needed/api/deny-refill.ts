import { ACTION_ERROR_LOG_NAMES, actionResultSchema, apiPaths, type RefillDenialReason } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { savesSendChoice, usePrescriptionAction } from './use-prescription-action.ts';

export interface DenyRefillInput {
  prescriptionId: string;
  reason: RefillDenialReason;
  senderName: string;
  /** 'Don't ask me again before sending' ticked with this call. */
  skipSendConfirmation?: true;
}

/** POST …/refills-denied with reason and senderName. */
export const denyRefill = ({ prescriptionId, ...body }: DenyRefillInput) =>
  api.request(apiPaths.refillDenied(prescriptionId), { method: 'POST', body, schema: actionResultSchema });

export const useDenyRefill = () => usePrescriptionAction(denyRefill, ACTION_ERROR_LOG_NAMES.refillDeny, savesSendChoice);
