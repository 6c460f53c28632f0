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
  PREPARED_MESSAGES,
  type PreparedDecisionInput,
  postponeDateProblemAt,
  type SignPreparedInput,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { auditingRefusals, entryOf } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayAct } from '../../lib/office-scope.ts';
import type { ActionContext } from './act.ts';
import type { alternativeMedActions } from './alternative-med.ts';
import type { priorAuthActions } from './prior-auth-actions.ts';
import type { refillActions } from './refill-actions.ts';
import * as repo from './repository.ts';
import * as undoRepo from './undo-repository.ts';

type Services = ReturnType<typeof refillActions> & ReturnType<typeof priorAuthActions> & ReturnType<typeof alternativeMedActions>;

export function bulkActions(deps: { db: Database; now: () => Date; undoWindowSeconds: number; services: Services }) {
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

  /** One undo window for every item of the call; the answer says what was done and what was refused. */
  async function undoWindow() {
    return deps.undoWindowSeconds > 0 ? await undoRepo.windowEnd(db, deps.undoWindowSeconds) : undefined;
  }
  function answerOf(ctx: ActionContext, results: BulkItemResult[], undoUntil: Date | undefined): BulkActionResult {
    const done = results.filter((r) => r.status === 'done').length;
    return {
      done,
      refused: results.length - done,
      results,
      ...(done > 0 && undoUntil && { undo: { requestId: ctx.requestId, until: undoUntil.toISOString() } }),
    };
  }

  /** Runs a prepared decision as its prescriber signs it (the decision's own use case, so its rules hold). */
  function runPrepared(ctx: ActionContext, id: string, decision: PreparedDecisionInput, senderName: string) {
    switch (decision.action) {
      case 'refillAuthorizedFax':
        return services.refillAuthorizedFax(ctx, id, { refills: decision.refills, sig: decision.sig, senderName });
      case 'refillAuthorizedErx':
        return services.refillAuthorizedErx(ctx, id, {});
      case 'refillDenied':
        return services.refillDenied(ctx, id, { reason: decision.reason, senderName });
      case 'alternativeMed':
        return services.alternativeMed(ctx, id, {
          noSubstitute: decision.noSubstitute,
          selectedAlternativeMed: decision.selectedAlternativeMed,
          senderName,
        });
    }
  }

  return {
    /**
     * Signs what staff prepared (issue 23), item by item like any bulk decision: only a prescriber (403 for the whole
     * call otherwise); an item whose request changed since it was prepared, or that nothing is prepared for any more,
     * is refused with the reason; controlled substances are signed on their own page.
     */
    async signPrepared(ctx: ActionContext, input: SignPreparedInput): Promise<BulkActionResult> {
      const ids = input.items.map((i) => i.id);
      await auditingRefusals(db, entryOf(ctx, 'prescription.sign-prepared', 'prescription', null, { prescriptionIds: ids }), () =>
        assertMayAct(db, ctx.userId, 'refillAuthorizedFax'),
      );
      const prepared = new Map((await repo.preparedDecisionsOf(db, ctx.userId, ids)).map((p) => [p.prescriptionId, p]));
      const shown = new Map(input.items.flatMap((i) => (i.version === undefined ? [] : [[i.id, i.version] as const])));
      const undoUntil = await undoWindow();
      const results: BulkItemResult[] = [];
      for (const id of ids) {
        results.push(
          await one(id, () => {
            const item = prepared.get(id);
            if (!item) throw new AppError('CONFLICT', PREPARED_MESSAGES.notPrepared);
            const version = shown.get(id);
            if (version !== undefined && version !== item.prescriptionVersion)
              throw new AppError('CONFLICT', BULK_REFUSALS.changed);
            const decision = item.decision as PreparedDecisionInput;
            const itemCtx: ActionContext = {
              ...ctx,
              // The request must be as it was when it was prepared: a signature never goes to a changed one.
              expectedVersions: new Map([[id, item.prescriptionVersion]]),
              refuseControlled: decision.action !== 'alternativeMed',
              undoUntil,
              preparedBy: item.preparedByName,
            };
            return runPrepared(itemCtx, id, decision, input.senderName).catch((error: unknown) => {
              if (error instanceof AppError && error.message === BULK_REFUSALS.changed) {
                throw new AppError('CONFLICT', PREPARED_MESSAGES.changed);
              }
              throw error;
            });
          }),
        );
      }
      return answerOf(ctx, results, undoUntil);
    },

    async bulk(ctx: ActionContext, input: BulkActionInput): Promise<BulkActionResult> {
      const ids = input.items.map((i) => i.id);
      await auditingRefusals(
        db,
        entryOf(ctx, `prescription.bulk.${input.action}`, 'prescription', null, { prescriptionIds: ids }),
        () => assertMayAct(db, ctx.userId, BULK_ACTION_RULE[input.action]),
      );
      if (input.action === 'refillPostpone') {
        const problem = postponeDateProblemAt(input.postponeTo ?? '', deps.now());
        if (problem) throw new AppError('VALIDATION_FAILED', problem, [{ path: 'body.postponeTo', message: problem }]);
      }
      const itemCtx: ActionContext = {
        ...ctx,
        expectedVersions: new Map(input.items.flatMap((i) => (i.version === undefined ? [] : [[i.id, i.version] as const]))),
        refuseControlled: BULK_REFILL_ACTIONS.has(input.action),
        // Every item's window ends together: one undo takes the whole decision back.
        undoUntil: await undoWindow(),
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
                const channel = authorizeChannelOf(fact?.prescribeVia ?? null, fact?.faxRuleId);
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
      return answerOf(ctx, results, itemCtx.undoUntil);
    },
  };
}
