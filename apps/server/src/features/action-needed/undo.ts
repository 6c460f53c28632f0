/**
 * Undo a decision (issue 22; decision 0030): within its window, the user who made it takes it back. In one
 * transaction, under the locks of the undo rows, the prescriptions and the outbox rows: each item whose message
 * has not left, whose window is open and that nobody changed since gets its earlier values back, its message is
 * cancelled (the pharmacy never hears of it), and the timeline says "Undone". Items that cannot be undone are
 * left as decided, with the reason; when none can, the answer is 409 and nothing changes.
 */
import { EVENT_TYPES, type PrescriptionAction, UNDO_REFUSALS, type UndoResult } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { auditingRefusals, entryOf, writeAudit } from '../../lib/audit.ts';
import { recordDecision } from '../../lib/decisions.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayAct } from '../../lib/office-scope.ts';
import { type ActionContext, type Changes, PREPARATION_KEY } from './act.ts';
import * as repo from './repository.ts';
import * as undoRepo from './undo-repository.ts';

export const NOTHING_TO_UNDO = 'Nothing to undo.';

/** Why one item of a decision cannot be undone, or null: the first that applies, in this order. */
function refusalOf(
  undo: { undoneAt: Date | null; open: boolean; versionAfter: number },
  rx: { version: number } | undefined,
  dispatched: boolean,
): string | null {
  if (undo.undoneAt) return UNDO_REFUSALS.alreadyUndone;
  if (!undo.open || dispatched) return UNDO_REFUSALS.tooLate;
  if (!rx) return UNDO_REFUSALS.notFound;
  if (rx.version !== undo.versionAfter) return UNDO_REFUSALS.changed;
  return null;
}

export function undoActions(db: Database) {
  return {
    async undoDecision(ctx: ActionContext, decisionRequestId: string): Promise<UndoResult> {
      const attempt = entryOf(ctx, 'prescription.decision.undone', 'prescription', null, { decisionRequestId });
      return auditingRefusals(db, attempt, () =>
        db.transaction(async (tx) => {
          const undos = await undoRepo.lockUndos(tx, ctx.userId, ctx.familyId, decisionRequestId);
          // Another user's decision is as unknown as none (404, like anything outside the caller's reach).
          if (undos.length === 0) throw new AppError('NOT_FOUND', NOTHING_TO_UNDO);
          for (const action of new Set(undos.map((u) => u.action))) {
            await assertMayAct(tx, ctx.userId, action as PrescriptionAction);
          }
          const locked = new Map(
            (
              await repo.lockPrescriptions(
                tx,
                ctx.userId,
                undos.map((u) => u.prescriptionId),
              )
            ).map((rx) => [rx.id, rx]),
          );
          const sent = new Set(
            (
              await undoRepo.lockOutboxOfEvents(
                tx,
                undos.map((u) => u.eventId),
              )
            )
              .filter((o) => o.dispatchedAt !== null)
              .map((o) => o.eventId),
          );
          const results: UndoResult['results'] = [];
          for (const undo of undos) {
            const rx = locked.get(undo.prescriptionId);
            const reason = refusalOf(undo, rx, sent.has(undo.eventId));
            if (reason) {
              results.push({ id: undo.prescriptionId, status: 'refused', reason });
              continue;
            }
            const { [PREPARATION_KEY]: preparation, ...previous } = undo.previous as Changes & {
              [PREPARATION_KEY]?: repo.RemovedPreparation;
            };
            await repo.updatePrescription(tx, undo.prescriptionId, previous);
            // What staff prepared comes back with the item, for the prescription as it now is (issue 47).
            if (preparation) await repo.restorePreparedDecision(tx, undo.prescriptionId, preparation, undo.versionAfter + 1);
            await undoRepo.markUndone(tx, ctx.userId, decisionRequestId, undo.prescriptionId, undo.eventId);
            await recordDecision(tx, {
              prescriptionId: undo.prescriptionId,
              type: EVENT_TYPES.decisionUndone,
              actorUserId: ctx.userId,
              requestId: ctx.requestId,
              data: { undoneType: undo.eventType, undoneData: undo.eventData, undoneEventId: undo.eventId },
            });
            results.push({ id: undo.prescriptionId, status: 'undone' });
          }
          const undone = results.filter((r) => r.status === 'undone');
          if (undone.length === 0) throw new AppError('CONFLICT', results[0]?.reason ?? NOTHING_TO_UNDO);
          await writeAudit(tx, { ...attempt, details: { decisionRequestId, prescriptionIds: undone.map((r) => r.id) } });
          return { undone: undone.length, refused: results.length - undone.length, results };
        }),
      );
    },
  };
}
