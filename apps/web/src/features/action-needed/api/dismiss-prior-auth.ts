import { apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { usePrescriptionAction } from './use-prescription-action.ts';

export interface DismissPriorAuthInput {
  prescriptionIds: string[];
  skipPriorAuthDismissNotice?: boolean;
}

/** POST /api/mdo/v1/prescriptions/all/prior-auth/dismiss (all or nothing). */
export const dismissPriorAuth = (body: DismissPriorAuthInput) =>
  api.request(apiPaths.priorAuthDismiss, {
    method: 'POST',
    body,
    schema: () => import('./answer-schemas.ts').then((m) => m.actionResultSchema),
  });

export const useDismissPriorAuth = () =>
  usePrescriptionAction(dismissPriorAuth, 'Prior Auth Dismiss Error', ({ skipPriorAuthDismissNotice }) =>
    skipPriorAuthDismissNotice ? { skipPriorAuthDismissNotice } : null,
  );
