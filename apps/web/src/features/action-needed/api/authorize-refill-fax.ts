import { ACTION_ERROR_LOG_NAMES, actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { savesSendChoice, usePrescriptionAction } from './use-prescription-action.ts';

export interface AuthorizeRefillFaxInput {
  prescriptionId: string;
  refills: number;
  sig: string;
  senderName: string;
  /** 'Don't ask me again before sending' ticked with this call. */
  skipSendConfirmation?: true;
}

/** POST …/prescriptions/{id}/refills-authorized/fax with refills, sig, senderName. */
export const authorizeRefillFax = ({ prescriptionId, ...body }: AuthorizeRefillFaxInput) =>
  api.request(apiPaths.refillAuthorizedFax(prescriptionId), { method: 'POST', body, schema: actionResultSchema });

export const useAuthorizeRefillFax = () =>
  usePrescriptionAction(authorizeRefillFax, ACTION_ERROR_LOG_NAMES.refillFax, savesSendChoice);
