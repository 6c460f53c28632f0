import { ACTION_ERROR_LOG_NAMES, actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { savesSendChoice, usePrescriptionAction } from './use-prescription-action.ts';

export interface SendChartNotesInput {
  prescriptionId: string;
  chartNote: string;
  isICD10TriedAndFailed: boolean;
  /** 'Don't ask me again before sending' ticked with this call. */
  skipSendConfirmation?: true;
}

/** POST …/prior-auth/chart-notes-sent with chartNote and isICD10TriedAndFailed. */
export const sendChartNotes = ({ prescriptionId, ...body }: SendChartNotesInput) =>
  api.request(apiPaths.chartNotesSent(prescriptionId), { method: 'POST', body, schema: actionResultSchema });

export const useSendChartNotes = () => usePrescriptionAction(sendChartNotes, ACTION_ERROR_LOG_NAMES.chartNotes, savesSendChoice);
