/**
 * Permission to sign controlled substances at a practice (21 CFR 1311.125, decision 0059). One person of the
 * practice enters a grant or a revocation; it takes effect when a second person approves it: a prescriber of the
 * practice with a current DEA registration for its state, who confirms the subject's registration and state
 * authorization are current. Both complete two factors at that moment; nobody approves their own entry or a change
 * of their own permission. Each step is recorded for the practice's EPCS report.
 */
import { EPCS_MESSAGES, type EpcsOverview, isPrescriberRole, isRegistrantFor, type StepUpAnswer } from '@hcp/contract';
import { todayIsoOf } from '../../lib/clock.ts';
import { auditEpcs, type PasskeySite, verifyStepUp } from '../../lib/epcs.ts';
import { AppError } from '../../lib/errors.ts';
import type { EpcsContext, EpcsDeps } from './common.ts';
import * as repo from './repository.ts';

type Prescriber = Awaited<ReturnType<typeof repo.prescribersOf>>[number];

const isRegistrant = (prescriber: Prescriber | undefined, state: string | null, today: string) =>
  isRegistrantFor(prescriber?.registrations ?? [], state, today);

export function accessUseCases(deps: EpcsDeps) {
  const { db, factors, now } = deps;
  const today = () => todayIsoOf(now);

  /** Two factors now; a failure is an incident of the practice's EPCS report (21 CFR 1311.215(b)). */
  async function stepUpOrIncident(ctx: EpcsContext, practiceId: string, stepUp: StepUpAnswer, site: PasskeySite, during: string) {
    try {
      return await verifyStepUp(db, factors, ctx.userId, stepUp, site);
    } catch (error) {
      await auditEpcs(db, ctx, practiceId, 'epcs.authentication.failed', { during });
      throw error;
    }
  }

  async function practiceOrNotFound(userId: string, practiceId: string) {
    const practice = await repo.practiceOf(db, userId, practiceId);
    if (!practice) throw new AppError('NOT_FOUND', 'Practice not found.');
    return practice;
  }

  return {
    async overview(userId: string): Promise<EpcsOverview> {
      const caller = await repo.callerOf(db, userId);
      const isPrescriber = Boolean(caller?.staffId && isPrescriberRole(caller.staffRole));
      const [registrations, strong, practices] = await Promise.all([
        isPrescriber && caller?.staffId ? repo.registrationsOf(db, caller.staffId) : Promise.resolve([]),
        factors.strongFactors(userId),
        repo.practicesOf(db, userId),
      ]);
      const day = today();
      return {
        isPrescriber,
        registrations: registrations.map(({ createdAt, ...r }) => ({ ...r, addedAt: createdAt.toISOString() }) as never),
        strongFactors: strong,
        practices: await Promise.all(
          practices.map(async (practice) => {
            const prescribers = await repo.prescribersOf(db, practice.id);
            const me = prescribers.find((p) => p.hcpId === caller?.staffId);
            const registrant = isRegistrant(me, practice.state, day);
            return {
              ...practice,
              prescribers: prescribers.map((p) => ({
                hcpId: p.hcpId,
                name: p.name,
                isSelf: p.hcpId === caller?.staffId,
                permission: p.permission,
                hasCurrentRegistration: isRegistrant(p, practice.state, day),
                pending:
                  p.pendingId && p.pendingAction && p.pendingEnteredAt
                    ? {
                        id: p.pendingId,
                        action: p.pendingAction,
                        enteredBy: p.pendingEnteredByName ?? 'unknown',
                        enteredAt: p.pendingEnteredAt,
                        mayApprove: registrant && p.pendingEnteredBy !== userId && p.hcpId !== caller?.staffId,
                      }
                    : null,
              })),
            };
          }),
        ),
      };
    },

    stepUpOptions: (userId: string, site: PasskeySite) => factors.signInOptions(userId, site, 'step-up'),

    async proposeChange(
      ctx: EpcsContext,
      input: { practiceId: string; hcpId: string; action: 'grant' | 'revoke'; stepUp: StepUpAnswer },
      site: PasskeySite,
    ): Promise<{ changeId: string }> {
      const practice = await practiceOrNotFound(ctx.userId, input.practiceId);
      const subject = (await repo.prescribersOf(db, practice.id)).find((p) => p.hcpId === input.hcpId);
      if (!subject) throw new AppError('NOT_FOUND', 'HCP or staff member not found.');
      if ((input.action === 'grant') === (subject.permission === 'granted'))
        throw new AppError('CONFLICT', EPCS_MESSAGES.nothingToChange);
      if (input.action === 'grant' && !isRegistrant(subject, practice.state, today())) {
        throw new AppError('CONFLICT', EPCS_MESSAGES.noRegistrationToGrant);
      }
      const factor = await stepUpOrIncident(ctx, practice.id, input.stepUp, site, 'entering a permission change');
      return db.transaction(async (tx) => {
        const changeId = await repo.insertChange(tx, {
          mdOfficeId: practice.id,
          mdStaffId: subject.hcpId,
          action: input.action,
          enteredBy: ctx.userId,
          enteredFactor: factor,
        });
        if (!changeId) throw new AppError('CONFLICT', EPCS_MESSAGES.alreadyPending);
        await auditEpcs(tx, ctx, practice.id, 'epcs.access.entered', {
          changeId,
          hcpId: subject.hcpId,
          change: input.action,
          factor,
        });
        return { changeId };
      });
    },

    async approveChange(ctx: EpcsContext, changeId: string, stepUp: StepUpAnswer, site: PasskeySite): Promise<void> {
      const waiting = await repo.lockWaitingChange(db, ctx.userId, changeId);
      if (!waiting) throw new AppError('NOT_FOUND', 'Permission change not found.');
      const caller = await repo.callerOf(db, ctx.userId);
      if (waiting.enteredBy === ctx.userId) throw new AppError('FORBIDDEN', EPCS_MESSAGES.sameApprover);
      if (caller?.staffId && waiting.mdStaffId === caller.staffId) throw new AppError('FORBIDDEN', EPCS_MESSAGES.ownGrant);
      const practice = await practiceOrNotFound(ctx.userId, waiting.mdOfficeId);
      const prescribers = await repo.prescribersOf(db, practice.id);
      const me = prescribers.find((p) => p.hcpId === caller?.staffId);
      if (!me || !isRegistrant(me, practice.state, today())) throw new AppError('FORBIDDEN', EPCS_MESSAGES.approverNotRegistrant);
      const subject = prescribers.find((p) => p.hcpId === waiting.mdStaffId);
      if (waiting.action === 'grant' && !isRegistrant(subject, practice.state, today())) {
        throw new AppError('CONFLICT', EPCS_MESSAGES.noRegistrationToGrant);
      }
      const factor = await stepUpOrIncident(ctx, practice.id, stepUp, site, 'approving a permission change');
      await db.transaction(async (tx) => {
        // Taken again under the lock: two approvers at once approve it once.
        const locked = await repo.lockWaitingChange(tx, ctx.userId, changeId);
        if (!locked) throw new AppError('CONFLICT', 'This change was already approved or declined.');
        await repo.approveChange(tx, changeId, ctx.userId, factor);
        await auditEpcs(tx, ctx, practice.id, 'epcs.access.approved', {
          changeId,
          hcpId: waiting.mdStaffId,
          change: waiting.action,
          enteredBy: waiting.enteredBy,
          factor,
          registrationVerified: true,
        });
      });
    },

    async declineChange(ctx: EpcsContext, changeId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const waiting = await repo.lockWaitingChange(tx, ctx.userId, changeId);
        if (!waiting) throw new AppError('NOT_FOUND', 'Permission change not found.');
        await repo.declineChange(tx, changeId, ctx.userId);
        await auditEpcs(tx, ctx, waiting.mdOfficeId, 'epcs.access.declined', {
          changeId,
          hcpId: waiting.mdStaffId,
          change: waiting.action,
        });
      });
    },
  };
}
