/**
 * Prescription actions (DESIGN §5). Each one is a single transaction: lock the prescriptions (only those
 * of the user's offices: others are "not found"), check the contract's transition rule for every one
 * (409 and nothing written when one fails: bulk calls are all-or-nothing), write the new state, one
 * timeline event per prescription, the pharmacy message (outbox) where the pharmacy must hear of it,
 * and the audit row.
 */
import {
  type ActionNeededQueryType,
  type ActionResult,
  CONFLICT_MESSAGES,
  DENIAL_ORDER_STATUS,
  describeEvent,
  EVENT_TYPES,
  isActionAllowed,
  isRefillDue,
  type PrescriptionAction,
  type PrescriptionEvent,
  postponeDateProblem,
  RESULT_STATUSES,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

export type ActionContext = SignedInContext;

export const PRESCRIPTION_NOT_FOUND = 'Prescription not found.';

type Changes = Parameters<typeof repo.updatePrescription>[2];
interface Step {
  event: string;
  data: Record<string, unknown>;
  changes: Changes;
  /** The pharmacy hears of it by fax or eRx (an outbox row in the same transaction). */
  notify?: { channel: 'fax' | 'erx'; message: Record<string, unknown> };
}

export function createActionNeededService(deps: { db: Database; now: () => Date }) {
  const { db } = deps;
  const todayIso = () => todayIsoOf(deps.now);

  function listJson(ctx: ActionContext, query: { actionType: ActionNeededQueryType; filterBy?: string | undefined }) {
    return repo.actionNeededJson(db, {
      userId: ctx.userId,
      actionType: query.actionType,
      filterBy: query.filterBy,
      todayIso: todayIso(),
      requestId: ctx.requestId,
      ip: ctx.ip,
    });
  }

  async function act(
    ctx: ActionContext,
    action: PrescriptionAction,
    ids: string[],
    step: (rx: repo.LockedPrescription) => Step,
    extra?: (tx: Executor) => Promise<void>,
  ): Promise<ActionResult> {
    const today = todayIso();
    return db.transaction(async (tx) => {
      const rows = await repo.lockPrescriptions(tx, ctx.userId, ids);
      if (rows.length !== new Set(ids).size) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
      for (const rx of rows) {
        const state = { ...rx, refillDue: isRefillDue(rx.needsRefillAuth, rx.refillPostponedUntil, today) };
        if (!isActionAllowed(action, state)) throw new AppError('CONFLICT', CONFLICT_MESSAGES[action]);
      }
      for (const rx of rows) {
        const { event, data, changes, notify } = step(rx);
        await repo.updatePrescription(tx, rx.id, changes);
        await repo.insertEvents(tx, [
          { prescriptionId: rx.id, type: event, actorUserId: ctx.userId, requestId: ctx.requestId, data },
        ]);
        if (notify) {
          await repo.insertOutbox(tx, {
            channel: notify.channel,
            prescriptionId: rx.id,
            recipient: 'pharmacy',
            payload: { ...notify.message, prescriptionId: rx.id, drugName: rx.drugName, strength: rx.strength },
          });
        }
      }
      await extra?.(tx);
      await writeAudit(tx, {
        actorUserId: ctx.userId,
        action: `prescription.${action}`,
        entityType: 'prescription',
        entityId: ids.length === 1 ? (ids[0] ?? null) : null,
        requestId: ctx.requestId,
        ip: ctx.ip,
        details: { prescriptionIds: ids },
      });
      return { status: 'OK' as const, prescriptionIds: rows.map((r) => r.id) };
    });
  }

  const cleared = { needsRefillAuth: false, refillPostponedUntil: null } satisfies Changes;

  return {
    listJson,

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
          data: {},
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
      const problem = postponeDateProblem(input.refillPostponedToDate, todayIso());
      if (problem) {
        throw new AppError('VALIDATION_FAILED', problem, [{ path: 'body.refillPostponedToDate', message: problem }]);
      }
      return act(ctx, 'refillPostponed', [id], () => ({
        event: EVENT_TYPES.refillPostponed,
        data: { postponedTo: input.refillPostponedToDate, senderName: input.senderName },
        changes: { refillPostponedUntil: input.refillPostponedToDate },
      }));
    },

    alternativeMed: (
      ctx: ActionContext,
      id: string,
      input: {
        noSubstitute: boolean;
        selectedAlternativeMed?: string | null | undefined;
        notes?: string | undefined;
        senderName: string;
      },
    ) => {
      const choice = input.selectedAlternativeMed?.trim() || null;
      if (!input.noSubstitute && !choice) {
        const message = 'Choose an alternative medication, or choose no substitution.';
        throw new AppError('VALIDATION_FAILED', message, [{ path: 'body.selectedAlternativeMed', message }]);
      }
      return act(ctx, 'alternativeMed', [id], () => ({
        event: input.noSubstitute ? EVENT_TYPES.alternativeMedDeclined : EVENT_TYPES.alternativeMedSelected,
        data: {
          selectedAlternativeMed: input.noSubstitute ? null : choice,
          notes: input.notes ?? '',
          senderName: input.senderName,
        },
        changes: input.noSubstitute
          ? { substitutionStatus: RESULT_STATUSES.declinedByMd, selectedAlternativeMed: null }
          : { substitutionStatus: RESULT_STATUSES.mdSelected, selectedAlternativeMed: choice },
        notify: {
          channel: 'fax',
          message: {
            type: 'alternative-medication',
            noSubstitute: input.noSubstitute,
            selectedAlternativeMed: input.noSubstitute ? null : choice,
            notes: input.notes ?? '',
            senderName: input.senderName,
          },
        },
      }));
    },

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
      return db.transaction(async (tx) => {
        const found = await repo.lockPatients(tx, ctx.userId, patientIds);
        if (found.length !== patientIds.length) throw new AppError('NOT_FOUND', 'Patient not found.');
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
        await repo.insertEvents(
          tx,
          open.map((rx) => ({
            prescriptionId: rx.id,
            type: EVENT_TYPES.phoneExceptionResolved,
            actorUserId: ctx.userId,
            requestId: ctx.requestId,
            data: {},
          })),
        );
        await writeAudit(tx, {
          actorUserId: ctx.userId,
          action: 'patient.phone-exception.resolved',
          entityType: 'patient',
          entityId: patientIds.length === 1 ? (patientIds[0] ?? null) : null,
          requestId: ctx.requestId,
          ip: ctx.ip,
          details: { patientIds, prescriptionIds: open.map((rx) => rx.id) },
        });
        return { status: 'OK' as const, prescriptionIds: open.map((rx) => rx.id) };
      });
    },

    async events(ctx: ActionContext, id: string): Promise<PrescriptionEvent[]> {
      const rows = await repo.eventsOf(db, ctx.userId, id);
      if (!rows) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
      await writeAudit(db, {
        actorUserId: ctx.userId,
        action: 'prescription.events.read',
        entityType: 'prescription',
        entityId: id,
        requestId: ctx.requestId,
        ip: ctx.ip,
      });
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        at: r.at.toISOString(),
        actorName: r.actorName,
        summary: describeEvent(r.type, r.data as Record<string, unknown>),
      }));
    },
  };
}
export type ActionNeededService = ReturnType<typeof createActionNeededService>;
