/**
 * Prepare-then-sign (issue 23, decision 0039): the practice's own people — staff and prescribers — prepare a decision
 * that needs a prescriber's signature and mark it ready to sign; they may withdraw it. Nothing reaches the pharmacy:
 * the signature (bulk.ts `signPrepared`) runs the decision itself. A prepared decision the item's state does not
 * allow is refused (409), as the decision would be.
 */
import {
  CONFLICT_MESSAGES,
  EVENT_TYPES,
  isActionAllowed,
  isRefillDue,
  PREPARED_MESSAGES,
  type PreparedDecisionInput,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { auditingRefusals, entryOf, writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { notifyPracticeOfPrescription } from '../../lib/live.ts';
import { assertMayAct } from '../../lib/office-scope.ts';
import { type ActionContext, PRESCRIPTION_NOT_FOUND } from './act.ts';
import * as repo from './repository.ts';

export function preparedDecisionActions(deps: { db: Database; todayIso: () => string }) {
  const { db } = deps;

  /** The prescription locked in the user's scope (404 outside), and the user allowed to change its data (403). */
  async function lockOwn(tx: Parameters<Parameters<Database['transaction']>[0]>[0], ctx: ActionContext, id: string) {
    const [rx] = await repo.lockPrescriptions(tx, ctx.userId, [id]);
    if (!rx) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
    await assertMayAct(tx, ctx.userId, 'officeWrite');
    return rx;
  }

  return {
    prepareDecision: (ctx: ActionContext, id: string, decision: PreparedDecisionInput) =>
      auditingRefusals(db, entryOf(ctx, 'prescription.prepare', 'prescription', id, { action: decision.action }), () =>
        db.transaction(async (tx) => {
          const rx = await lockOwn(tx, ctx, id);
          const state = { ...rx, refillDue: isRefillDue(rx.needsRefillAuth, rx.refillPostponedUntil, deps.todayIso()) };
          if (!isActionAllowed(decision.action, state)) throw new AppError('CONFLICT', CONFLICT_MESSAGES[decision.action]);
          if (decision.action === 'alternativeMed' && !decision.noSubstitute && !decision.selectedAlternativeMed) {
            const message = 'Choose an alternative medication, or choose no substitution.';
            throw new AppError('VALIDATION_FAILED', message, [{ path: 'body.selectedAlternativeMed', message }]);
          }
          await repo.upsertPreparedDecision(tx, {
            prescriptionId: id,
            decision,
            preparedBy: ctx.userId,
            prescriptionVersion: rx.version,
          });
          // The note is for the prescriber; the timeline keeps what would be sent.
          const { note: _note, ...sent } = decision;
          await repo.insertEvents(tx, [
            {
              prescriptionId: id,
              type: EVENT_TYPES.decisionPrepared,
              actorUserId: ctx.userId,
              requestId: ctx.requestId,
              data: sent,
            },
          ]);
          await notifyPracticeOfPrescription(tx, id);
          await writeAudit(tx, entryOf(ctx, 'prescription.prepare', 'prescription', id, { action: decision.action }));
          return { status: 'OK' as const, prescriptionIds: [id] };
        }),
      ),

    withdrawPrepared: (ctx: ActionContext, id: string) =>
      auditingRefusals(db, entryOf(ctx, 'prescription.prepare-withdraw', 'prescription', id), () =>
        db.transaction(async (tx) => {
          await lockOwn(tx, ctx, id);
          if (!(await repo.deletePreparedDecision(tx, id))) throw new AppError('CONFLICT', PREPARED_MESSAGES.notPrepared);
          await repo.insertEvents(tx, [
            {
              prescriptionId: id,
              type: EVENT_TYPES.preparationWithdrawn,
              actorUserId: ctx.userId,
              requestId: ctx.requestId,
              data: {},
            },
          ]);
          await notifyPracticeOfPrescription(tx, id);
          await writeAudit(tx, entryOf(ctx, 'prescription.prepare-withdraw', 'prescription', id));
          return { status: 'OK' as const, prescriptionIds: [id] };
        }),
      ),
  };
}
