/** Phone exceptions: the corrected number becomes the patient's first; every open exception of theirs clears. */
import { type ActionResult, CONFLICT_MESSAGES, EVENT_TYPES } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { auditingRefusals, entryOf, writeAudit } from '../../lib/audit.ts';
import { recordDecision } from '../../lib/decisions.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayAct } from '../../lib/office-scope.ts';
import { type ActionContext, saveSendChoice } from './act.ts';
import * as repo from './repository.ts';

export function phoneExceptionActions(db: Database) {
  return {
    /** Corrected numbers become the patient's first number; every open phone exception of the patient is cleared. */
    async resolvePhoneExceptions(
      ctx: ActionContext,
      updates: { patientId: string; phoneNumber: string }[],
    ): Promise<ActionResult> {
      const patientIds = updates.map((u) => u.patientId);
      if (new Set(patientIds).size !== patientIds.length) {
        const message = 'A patient is listed twice.';
        throw new AppError('VALIDATION_FAILED', message, [{ path: 'body.patientPhoneNumberUpdates', message }]);
      }
      const attempt = entryOf(
        ctx,
        'patient.phone-exception.resolved',
        'patient',
        patientIds.length === 1 ? (patientIds[0] ?? null) : null,
        { patientIds },
      );
      return auditingRefusals(db, attempt, () =>
        db.transaction(async (tx) => {
          const found = await repo.lockPatients(tx, ctx.userId, patientIds);
          if (found.length !== patientIds.length) throw new AppError('NOT_FOUND', 'Patient not found.');
          await assertMayAct(tx, ctx.userId, 'resolvePhoneException');
          const open = await repo.openPhoneExceptionsOf(tx, patientIds);
          const withException = new Set(open.map((rx) => rx.patientId));
          if (patientIds.some((id) => !withException.has(id))) {
            throw new AppError('CONFLICT', CONFLICT_MESSAGES.resolvePhoneException);
          }
          for (const update of updates) {
            const patient = found.find((p) => p.id === update.patientId);
            const others = (patient?.phoneNumbers ?? []).slice(1).filter((n) => n !== update.phoneNumber);
            await repo.setPatientPhones(tx, update.patientId, [update.phoneNumber, ...others]);
          }
          await repo.clearPhoneExceptions(tx, patientIds);
          await saveSendChoice(tx, ctx);
          const corrected = new Map(updates.map((u) => [u.patientId, u.phoneNumber]));
          for (const rx of open) {
            await recordDecision(tx, {
              prescriptionId: rx.id,
              type: EVENT_TYPES.phoneExceptionResolved,
              actorUserId: ctx.userId,
              requestId: ctx.requestId,
              data: { phoneNumber: corrected.get(rx.patientId) },
            });
          }
          await writeAudit(tx, { ...attempt, details: { patientIds, prescriptionIds: open.map((rx) => rx.id) } });
          return { status: 'OK' as const, prescriptionIds: open.map((rx) => rx.id) };
        }),
      );
    },
  };
}
