/** Prior authorizations: dismiss notices, MD signature received, chart notes (or ICD-10) sent. */
import { EVENT_TYPES, RESULT_STATUSES } from '@hcp/contract';
import type { Act, ActionContext } from './act.ts';
import * as repo from './repository.ts';

export function priorAuthActions(act: Act) {
  return {
    priorAuthDismiss: (
      ctx: ActionContext,
      input: { prescriptionIds: string[]; skipPriorAuthDismissNotice?: boolean | undefined },
    ) =>
      act(
        ctx,
        'priorAuthDismiss',
        input.prescriptionIds,
        (rx) => ({
          event: EVENT_TYPES.priorAuthDismissed,
          data: { previousStatus: rx.priorAuthStatus },
          changes: { priorAuthStatus: RESULT_STATUSES.dismissed },
        }),
        async (tx) => {
          if (typeof input.skipPriorAuthDismissNotice === 'boolean') {
            await repo.setUserPreference(tx, ctx.userId, { skipPriorAuthDismissNotice: input.skipPriorAuthDismissNotice });
          }
        },
      ),

    mdSignatureReceived: (ctx: ActionContext, input: { prescriptionIds: string[] }) =>
      act(ctx, 'mdSignatureReceived', input.prescriptionIds, () => ({
        event: EVENT_TYPES.mdSignatureReceived,
        data: {},
        changes: { priorAuthStatus: RESULT_STATUSES.signatureReceived },
      })),

    chartNotesSent: (ctx: ActionContext, id: string, input: { chartNote: string; isICD10TriedAndFailed: boolean }) =>
      act(ctx, 'chartNotesSent', [id], (rx) => ({
        event: EVENT_TYPES.chartNotesSent,
        data: {
          chartNote: input.chartNote,
          isICD10TriedAndFailed: input.isICD10TriedAndFailed,
          previousStatus: rx.priorAuthStatus,
        },
        changes: { priorAuthStatus: RESULT_STATUSES.chartNotesSent },
        notify: { channel: 'fax', message: { type: 'prior-auth-chart-notes', ...input } },
      })),
  };
}
