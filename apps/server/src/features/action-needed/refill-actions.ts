/** Refill requests: authorised by fax or eRx, denied (prescribers), postponed to a day (staff too). */

import { DENIAL_ORDER_STATUS, EVENT_TYPES, postponeDateProblemAt } from '@hcp/contract';
import { AppError } from '../../lib/errors.ts';
import { type Act, type ActionContext, cleared } from './act.ts';
import * as repo from './repository.ts';

export function refillActions(act: Act, now: () => Date) {
  return {
    refillAuthorizedFax: (ctx: ActionContext, id: string, input: { refills: number; sig: string; senderName: string }) =>
      act(ctx, 'refillAuthorizedFax', [id], () => ({
        event: EVENT_TYPES.refillAuthorizedFax,
        data: { refills: input.refills, sig: input.sig, senderName: input.senderName },
        changes: { ...cleared, refills: input.refills, sig: input.sig },
        notify: { channel: 'fax', message: { type: 'refill-authorized', ...input } },
      })),

    refillAuthorizedErx: (ctx: ActionContext, id: string, input: { skipErxConfirmation?: boolean | undefined }) =>
      act(
        ctx,
        'refillAuthorizedErx',
        [id],
        (rx) => ({
          event: EVENT_TYPES.refillAuthorizedErx,
          // What the eRx carries, so the pharmacy's system hears the same as with a fax.
          data: { refills: rx.refills, sig: rx.sig },
          changes: cleared,
          notify: { channel: 'erx', message: { type: 'refill-authorized', refills: rx.refills, sig: rx.sig } },
        }),
        async (tx) => {
          // Spec §5: the preference changes only when a boolean is supplied.
          if (typeof input.skipErxConfirmation === 'boolean') {
            await repo.setUserPreference(tx, ctx.userId, { skipErxConfirmation: input.skipErxConfirmation });
          }
        },
      ),

    refillDenied: (ctx: ActionContext, id: string, input: { reason: string; senderName: string }) =>
      act(ctx, 'refillDenied', [id], () => ({
        event: EVENT_TYPES.refillDenied,
        data: { reason: input.reason, senderName: input.senderName },
        changes: { ...cleared, orderStatus: DENIAL_ORDER_STATUS[input.reason] ?? 'Refill Denied' },
        notify: { channel: 'fax', message: { type: 'refill-denied', ...input } },
      })),

    refillPostponed: (ctx: ActionContext, id: string, input: { refillPostponedToDate: string; senderName: string }) => {
      const problem = postponeDateProblemAt(input.refillPostponedToDate, now());
      if (problem) {
        throw new AppError('VALIDATION_FAILED', problem, [{ path: 'body.refillPostponedToDate', message: problem }]);
      }
      return act(ctx, 'refillPostponed', [id], () => ({
        event: EVENT_TYPES.refillPostponed,
        data: { postponedTo: input.refillPostponedToDate, senderName: input.senderName },
        changes: { refillPostponedUntil: input.refillPostponedToDate },
      }));
    },
  };
}
