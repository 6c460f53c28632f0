/**
 * One decision on many items (issue 22). The user's right to take it is checked once (403 for the whole call,
 * audited, nothing done); then each item runs through its own use case of this folder in its own transaction,
 * so one item that cannot be decided (changed meanwhile, a controlled substance, decided by someone else, out
 * of reach) is left out with the reason and the others go ahead. Every attempt is audited by act.ts.
 */
import {
  authorizeChannelOf,
  BULK_ACTION_RULE,
  BULK_REFILL_ACTIONS,
  BULK_REFUSALS,
  type BulkActionInput,
  type BulkActionResult,
  type BulkItemResult,
  postponeDateProblem,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { auditingRefusals, entryOf } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayAct } from '../../lib/office-scope.ts';
import type { ActionContext } from './act.ts';
import type { priorAuthActions } from './prior-auth-actions.ts';
import type { refillActions } from './refill-actions.ts';
import * as repo from './repository.ts';
import * as undoRepo from './undo-repository.ts';

type Services = ReturnType<typeof refillActions> & ReturnType<typeof priorAuthActions>;

export function bulkActions(deps: { db: Database; todayIso: () => string; undoWindowSeconds: number; services: Services }) {
  const { db, services } = deps;

  /** Runs one item; an expected refusal (409, 404, 403) becomes its reason, anything else fails the call. */
  async function one(id: string, run: () => Promise<unknown>): Promise<BulkItemResult> {
    try {
      await run();
      return { id, status: 'done' };
    } catch (error) {
      if (error instanceof AppError && ['CONFLICT', 'NOT_FOUND', 'FORBIDDEN'].includes(error.code)) {
        return { id, status: 'refused', reason: error.message };
      }
      throw error;
    }
  }

  return {
    async bulk(ctx: ActionContext, input: BulkActionInput): Promise<BulkActionResult> {
      const ids = input.items.map((i) => i.id);
      await auditingRefusals(
        db,
        entryOf(ctx, `prescription.bulk.${input.action}`, 'prescription', null, { prescriptionIds: ids }),
        () => assertMayAct(db, ctx.userId, BULK_ACTION_RULE[input.action]),
      );
      if (input.action === 'refillPostpone') {
        const problem = postponeDateProblem(input.postponeTo ?? '', deps.todayIso());
        if (problem) throw new AppError('VALIDATION_FAILED', problem, [{ path: 'body.postponeTo', message: problem }]);
      }
      const itemCtx: ActionContext = {
        ...ctx,
        expectedVersions: new Map(input.items.flatMap((i) => (i.version === undefined ? [] : [[i.id, i.version] as const]))),
        refuseControlled: BULK_REFILL_ACTIONS.has(input.action),
        // Every item's window ends together: one undo takes the whole decision back.
        undoUntil: deps.undoWindowSeconds > 0 ? await undoRepo.windowEnd(db, deps.undoWindowSeconds) : undefined,
      };
      const facts =
        input.action === 'refillAuthorize'
          ? new Map((await repo.authorizationFacts(db, ctx.userId, ids)).map((f) => [f.id, f]))
          : new Map();
      const results: BulkItemResult[] = [];
      for (const id of ids) {
        results.push(
          await one(id, () => {
            switch (input.action) {
              case 'refillAuthorize': {
                const fact = facts.get(id);
                const channel = authorizeChannelOf(fact?.prescribeVia ?? null);
                if (fact && channel === 'fax' && !fact.sig) throw new AppError('CONFLICT', BULK_REFUSALS.noSig);
                return channel === 'erx'
                  ? services.refillAuthorizedErx(itemCtx, id, {})
                  : services.refillAuthorizedFax(itemCtx, id, {
                      refills: fact?.refills ?? 0,
                      sig: fact?.sig ?? '',
                      senderName: input.senderName,
                    });
              }
              case 'refillDeny':
                return services.refillDenied(itemCtx, id, { reason: input.reason ?? '', senderName: input.senderName });
              case 'refillPostpone':
                return services.refillPostponed(itemCtx, id, {
                  refillPostponedToDate: input.postponeTo ?? '',
                  senderName: input.senderName,
                });
              case 'priorAuthDismiss':
                return services.priorAuthDismiss(itemCtx, { prescriptionIds: [id] });
              case 'mdSignatureReceived':
                return services.mdSignatureReceived(itemCtx, { prescriptionIds: [id] });
            }
          }),
        );
      }
      const done = results.filter((r) => r.status === 'done').length;
      return {
        done,
        refused: results.length - done,
        results,
        ...(done > 0 && itemCtx.undoUntil && { undo: { requestId: ctx.requestId, until: itemCtx.undoUntil.toISOString() } }),
      };
    },
  };
}
