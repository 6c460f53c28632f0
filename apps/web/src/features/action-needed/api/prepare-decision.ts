import { actionResultSchema, apiPaths, type PreparedDecisionInput } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { usePrescriptionAction } from './use-prescription-action.ts';

/** PUT …/prepared-decision (issue 23): staff prepare a decision for the prescriber's signature; nothing is sent. */
export const prepareDecision = ({ prescriptionId, decision }: { prescriptionId: string; decision: PreparedDecisionInput }) =>
  api.request(apiPaths.preparedDecision(prescriptionId), { method: 'PUT', body: decision, schema: actionResultSchema });

/** DELETE …/prepared-decision: take it back before it is signed. */
export const withdrawPrepared = ({ prescriptionId }: { prescriptionId: string }) =>
  api.request(apiPaths.preparedDecision(prescriptionId), { method: 'DELETE', schema: actionResultSchema });

export const usePrepareDecision = () => usePrescriptionAction(prepareDecision, 'Prepare Decision Error');
export const useWithdrawPrepared = () => usePrescriptionAction(withdrawPrepared, 'Withdraw Prepared Decision Error');
