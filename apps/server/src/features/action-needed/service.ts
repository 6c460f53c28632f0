/**
 * Action Needed (DESIGN §5): the list and every action on a prescription, one file per use case in this
 * folder, each running through act.ts (one transaction with its event, pharmacy message and audit row).
 */
import type { ActionNeededQueryType } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { entryOf } from '../../lib/audit.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import type { StepUpFactors } from '../../lib/epcs.ts';
import type { EpcsSigner } from '../../lib/epcs-signature.ts';
import type { ReadRouting } from '../../lib/read-routing.ts';
import { type ActionContext, createAct } from './act.ts';
import { alternativeMedActions } from './alternative-med.ts';
import { bulkActions } from './bulk.ts';
import { controlledRefillActions } from './controlled-refills.ts';
import { phoneExceptionActions } from './phone-exceptions.ts';
import { preparedDecisionActions } from './prepared.ts';
import { priorAuthActions } from './prior-auth-actions.ts';
import { actionQueue } from './queue.ts';
import { refillActions } from './refill-actions.ts';
import * as repo from './repository.ts';
import { timeline } from './timeline.ts';
import { undoActions } from './undo.ts';

export { type ActionContext, PRESCRIPTION_NOT_FOUND } from './act.ts';

export function createActionNeededService(deps: {
  db: Database;
  reads: ReadRouting;
  now: () => Date;
  undoWindowSeconds: number;
  /** Signing controlled substances (EPCS): two factors now, and the application's signing key. */
  epcs: { factors: StepUpFactors; signer: EpcsSigner };
}) {
  const { db, undoWindowSeconds } = deps;
  const todayIso = () => todayIsoOf(deps.now);
  const act = createAct({ db, todayIso, undoWindowSeconds });

  function listJson(ctx: ActionContext, query: { actionType: ActionNeededQueryType; filterBy?: string | undefined }) {
    const entry = entryOf(ctx, 'action-needed.read', 'action-needed', null, {
      actionType: query.actionType,
      filterBy: query.filterBy ?? null,
    });
    return deps.reads.auditedList(ctx.userId, entry, (source, audit) =>
      repo.actionNeededJson(
        source,
        { userId: ctx.userId, actionType: query.actionType, filterBy: query.filterBy, todayIso: todayIso() },
        audit,
      ),
    );
  }

  const refills = refillActions(act, deps.now);
  const priorAuth = priorAuthActions(act);
  const alternatives = alternativeMedActions(act);
  return {
    listJson,
    ...actionQueue({ db, todayIso }),
    ...bulkActions({ db, now: deps.now, undoWindowSeconds, services: { ...refills, ...priorAuth, ...alternatives } }),
    ...preparedDecisionActions({ db, todayIso }),
    ...refills,
    ...controlledRefillActions(act, { db, now: deps.now, todayIso, ...deps.epcs }),
    ...alternatives,
    ...priorAuth,
    ...phoneExceptionActions(db),
    ...undoActions(db),
    ...timeline(db),
  };
}
export type ActionNeededService = ReturnType<typeof createActionNeededService>;
