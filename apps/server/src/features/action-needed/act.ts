/**
 * The one way a prescription action runs (DESIGN §5), shared by every use case of this folder: a single
 * transaction that locks the prescriptions (only those of the user's practices: others are "not found"),
 * refuses what the user may not do (403: the role, or the practice's signing policy) and what the contract's transition rule forbids (409, nothing
 * written: bulk calls are all-or-nothing), then writes the new state, one timeline event per prescription, the
 * pharmacy message (outbox, lib/decisions.ts) the pharmacy hears of it from, and the audit row. A refused attempt is
 * audited on its own. With an undo window (issue 22), the message is held until the window ends and what the
 * decision changed is kept so undo.ts can put it back.
 */
import {
  type ActionResult,
  BULK_REFUSALS,
  CONFLICT_MESSAGES,
  EPCS_MESSAGES,
  isActionAllowed,
  isRefillDue,
  type PrescriptionAction,
  STANDING_RULE_MESSAGES,
} from '@hcp/contract';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { auditingRefusals, entryOf, writeAudit } from '../../lib/audit.ts';
import { recordDecision, windowEndSql } from '../../lib/decisions.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayAct } from '../../lib/office-scope.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { assertMaySign } from '../../lib/signing.ts';
import * as repo from './repository.ts';
import * as undoRepo from './undo-repository.ts';

export interface ActionContext extends SignedInContext {
  /**
   * 'Don't ask me again before sending' ticked in the confirmation of this very call (issue 21): saved in the
   * action's transaction, as the eRx call saves its own choice. Undefined leaves the preference as it is.
   */
  skipSendConfirmation?: boolean | undefined;
  /**
   * A bulk decision (issue 22): the versions the screen showed, checked under the lock (an item that changed
   * meanwhile is refused, not decided blind), and whether a controlled substance is refused.
   */
  expectedVersions?: ReadonlyMap<string, number> | undefined;
  refuseControlled?: boolean | undefined;
  /** One end of the undo window for every item of a bulk decision (one undo takes them all back). */
  undoUntil?: Date | undefined;
  /** Signing what staff prepared (issue 23): the timeline names who prepared it. */
  preparedBy?: string | undefined;
  /**
   * An EPCS signature (issue 48, controlled-refills.ts): the only way a controlled substance's refill is authorized.
   * `beforeWrite` runs under the lock after the reach and signing checks and before the transition checks (it checks
   * that nothing changed since the content was shown, and signs it; a later refusal rolls it back); the decision is
   * sent at once, never held for undo (what was signed is final).
   */
  epcs?: { beforeWrite(tx: Executor, rows: repo.LockedPrescription[]): Promise<void> } | undefined;
}

/** The decisions that authorize a refill: for a controlled substance, only with an EPCS signature. */
const REFILL_AUTHORIZATIONS: ReadonlySet<PrescriptionAction> = new Set(['refillAuthorizedFax', 'refillAuthorizedErx']);

export const PRESCRIPTION_NOT_FOUND = 'Prescription not found.';

export type Changes = Parameters<typeof repo.updatePrescription>[2];
export interface Step {
  event: string;
  data: Record<string, unknown>;
  changes: Changes;
  /** The pharmacy hears of it by fax or eRx (an outbox row in the same transaction). */
  notify?: { channel: 'fax' | 'erx'; message: Record<string, unknown> };
}

/** A refill request answered: it no longer waits, postponed or not. */
export const cleared = { needsRefillAuth: false, refillPostponedUntil: null } satisfies Changes;

export interface ActionDeps {
  db: Database;
  todayIso: () => string;
  /** How long a decision is held and can be undone (0: sent at once, no undo). */
  undoWindowSeconds: number;
}
export type Act = ReturnType<typeof createAct>;

/** The columns a step changes, with the values they had: what an undo writes back. */
/** Where an undo row keeps the preparation its decision removed, beside the prescription's earlier values. */
export const PREPARATION_KEY = '_preparedDecision';

function previousOf(rx: repo.LockedPrescription, changes: Changes): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(changes).map((key) => {
      if (!(key in rx)) throw new Error(`an undo could not restore ${key}: lock it in lockPrescriptions`);
      return [key, rx[key as keyof repo.LockedPrescription]];
    }),
  );
}

/** Until when this call's decisions are held: a bulk call's shared end, else the window from now; none without undo. */
function holdOf(ctx: ActionContext, undoWindowSeconds: number) {
  if (undoWindowSeconds <= 0 || ctx.epcs) return undefined;
  return ctx.undoUntil ? sql`${ctx.undoUntil.toISOString()}::timestamptz` : windowEndSql(undoWindowSeconds);
}

/** Saves the 'don't ask me again before sending' choice given with a call, inside its transaction. */
export async function saveSendChoice(tx: Executor, ctx: ActionContext): Promise<void> {
  if (typeof ctx.skipSendConfirmation === 'boolean') {
    await repo.setUserPreference(tx, ctx.userId, { skipSendConfirmation: ctx.skipSendConfirmation });
  }
}

export function createAct({ db, todayIso, undoWindowSeconds }: ActionDeps) {
  return async function act(
    ctx: ActionContext,
    action: PrescriptionAction,
    ids: string[],
    step: (rx: repo.LockedPrescription) => Step,
    extra?: (tx: Executor) => Promise<void>,
  ): Promise<ActionResult> {
    const today = todayIso();
    const attempt = entryOf(ctx, `prescription.${action}`, 'prescription', ids.length === 1 ? (ids[0] ?? null) : null, {
      prescriptionIds: ids,
    });
    return auditingRefusals(db, attempt, () =>
      db.transaction(async (tx) => {
        const rows = await repo.lockPrescriptions(tx, ctx.userId, ids);
        if (rows.length !== new Set(ids).size) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
        // Seen but not theirs to change: a support-access window, or staff on a prescriber's decision (403).
        await assertMayAct(tx, ctx.userId, action);
        await assertMaySign(tx, ctx.userId, action, rows);
        // An EPCS signature first checks that nothing changed since the content was shown (else "changed", whatever
        // else changed with it), then signs; nothing is written if a check below refuses.
        await ctx.epcs?.beforeWrite(tx, rows);
        for (const rx of rows) {
          const expected = ctx.expectedVersions?.get(rx.id);
          if (expected !== undefined && expected !== rx.version) throw new AppError('CONFLICT', BULK_REFUSALS.changed);
          if (ctx.refuseControlled && rx.isControlled) throw new AppError('CONFLICT', BULK_REFUSALS.controlled);
          if (rx.isControlled && REFILL_AUTHORIZATIONS.has(action) && !ctx.epcs)
            throw new AppError('CONFLICT', EPCS_MESSAGES.needsEpcs);
          // An "always send by fax" standing rule routes this request (issue 23): eRx is refused, fax is open.
          if (action === 'refillAuthorizedErx' && rx.faxRuleId) throw new AppError('CONFLICT', STANDING_RULE_MESSAGES.faxOnly);
          const state = { ...rx, refillDue: isRefillDue(rx.needsRefillAuth, rx.refillPostponedUntil, today) };
          if (!isActionAllowed(action, state)) throw new AppError('CONFLICT', CONFLICT_MESSAGES[action]);
        }
        await saveSendChoice(tx, ctx);
        const heldUntil = holdOf(ctx, undoWindowSeconds);
        let undoUntil: Date | undefined;
        for (const rx of rows) {
          const { event, data: stepData, changes, notify } = step(rx);
          const data = ctx.preparedBy ? { ...stepData, preparedBy: ctx.preparedBy } : stepData;
          await repo.updatePrescription(tx, rx.id, changes);
          // Any decision ends what was prepared for the item: it was signed, or decided otherwise. Its undo keeps it.
          const removed = await repo.deletePreparedDecision(tx, rx.id);
          const eventId = await recordDecision(tx, {
            prescriptionId: rx.id,
            type: event,
            actorUserId: ctx.userId,
            requestId: ctx.requestId,
            data,
            ...(heldUntil && { heldUntil }),
            ...(notify && {
              message: {
                channel: notify.channel,
                recipient: 'pharmacy',
                payload: { ...notify.message, prescriptionId: rx.id, drugName: rx.drugName, strength: rx.strength },
              },
            }),
          });
          if (heldUntil) {
            undoUntil = await undoRepo.insertUndo(tx, {
              userId: ctx.userId,
              requestId: ctx.requestId,
              sessionFamilyId: ctx.familyId,
              prescriptionId: rx.id,
              action,
              eventId,
              previous: { ...previousOf(rx, changes), ...(removed && { [PREPARATION_KEY]: removed }) },
              versionAfter: rx.version + 1,
              undoUntil: heldUntil,
            });
          }
        }
        await extra?.(tx);
        await writeAudit(tx, attempt);
        return {
          status: 'OK' as const,
          prescriptionIds: rows.map((r) => r.id),
          ...(undoUntil && { undo: { requestId: ctx.requestId, until: undoUntil.toISOString() } }),
        };
      }),
    );
  };
}
