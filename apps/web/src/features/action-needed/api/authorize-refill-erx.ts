import { ACTION_ERROR_LOG_NAMES, actionResultSchema, apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { usePrescriptionAction } from './use-prescription-action.ts';

export interface AuthorizeRefillErxInput {
  prescriptionId: string;
  skipErxConfirmation?: boolean;
}

/** POST …/refills-authorized/erx; skipErxConfirmation is saved as the user's preference when given. */
export const authorizeRefillErx = ({ prescriptionId, ...body }: AuthorizeRefillErxInput) =>
  api.request(apiPaths.refillAuthorizedErx(prescriptionId), { method: 'POST', body, schema: actionResultSchema });

export const useAuthorizeRefillErx = () =>
  usePrescriptionAction(authorizeRefillErx, ACTION_ERROR_LOG_NAMES.refillErx, ({ skipErxConfirmation }) =>
    skipErxConfirmation ? { skipErxConfirmation } : null,
  );
