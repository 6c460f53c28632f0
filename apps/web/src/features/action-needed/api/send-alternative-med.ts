import { ACTION_ERROR_LOG_NAMES, actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { savesSendChoice, usePrescriptionAction } from './use-prescription-action.ts';

export interface SendAlternativeMedInput {
  prescriptionId: string;
  noSubstitute: boolean;
  selectedAlternativeMed: string | null;
  notes: string;
  senderName: string;
  /** 'Don't ask me again before sending' ticked with this call. */
  skipSendConfirmation?: true;
}

/** POST …/substitution/alternative-med with noSubstitute, selectedAlternativeMed, notes, senderName. */
export const sendAlternativeMed = ({ prescriptionId, ...body }: SendAlternativeMedInput) =>
  api.request(apiPaths.alternativeMed(prescriptionId), { method: 'POST', body, schema: actionResultSchema });

export const useSendAlternativeMed = () =>
  usePrescriptionAction(sendAlternativeMed, ACTION_ERROR_LOG_NAMES.alternativeMed, savesSendChoice);
