import { actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { usePrescriptionAction } from './use-prescription-action.ts';

export interface ConfirmMdSignatureInput {
  prescriptionIds: string[];
}

/** POST /api/mdo/v1/prescriptions/all/prior-auth/md-signature-received (all or nothing). */
export const confirmMdSignature = (body: ConfirmMdSignatureInput) =>
  api.request(apiPaths.mdSignatureReceived, { method: 'POST', body, schema: actionResultSchema });

export const useConfirmMdSignature = () => usePrescriptionAction(confirmMdSignature, 'Prior Auth MD Signature Error');
