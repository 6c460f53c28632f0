/**
 * Sign-in policy (issue 48, decision 0060): the provider's admin requires a strong factor (a passkey or an
 * authenticator app) of every user of the tenant and decides whether a mailed code may stand in for one; a practice's
 * prescribers require one of the practice's people. Tokens follow at their next issue (a refresh, at most one access
 * token's life): a user who must and has none gets a token good only for adding one. Every change is audited.
 */
import { SIGN_IN_POLICY_MESSAGES } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { FactorContext, SignInFactorDeps } from './common.ts';
import * as repo from './repository.ts';

export function policyUseCases({ db }: SignInFactorDeps) {
  const audit = (tx: Executor, ctx: FactorContext & { userId: string }, entityType: string, entityId: string, details: object) =>
    writeAudit(tx, {
      actorUserId: ctx.userId,
      action: 'sign-in-policy.changed',
      entityType,
      entityId,
      requestId: ctx.requestId,
      ip: ctx.ip,
      details: details as Record<string, unknown>,
    });

  async function admin(userId: string) {
    const caller = await repo.policyCallerOf(db, userId);
    if (!caller?.isAdmin) throw new AppError('NOT_FOUND', 'Sign-in policy not found.');
    return caller;
  }

  async function tenantPolicy(tenantId: string) {
    const row = await repo.tenantPolicyOf(db, tenantId);
    if (!row) throw new AppError('NOT_FOUND', 'Sign-in policy not found.');
    return row;
  }

  return {
    async tenantSignInPolicy(userId: string) {
      return tenantPolicy((await admin(userId)).tenantId);
    },

    async setTenantSignInPolicy(
      ctx: FactorContext & { userId: string },
      input: { strongFactorRequired: boolean; emailCodesAllowed: boolean },
    ) {
      const { tenantId } = await admin(ctx.userId);
      await db.transaction(async (tx) => {
        await repo.setTenantPolicy(tx, tenantId, input);
        await audit(tx, ctx, 'tenant', tenantId, input);
      });
      return tenantPolicy(tenantId);
    },

    async practiceSignInPolicy(userId: string, practiceId: string) {
      const [caller, practice] = await Promise.all([
        repo.policyCallerOf(db, userId),
        repo.practicePolicyOf(db, userId, practiceId),
      ]);
      if (!practice || !caller || (!practice.isMember && !caller.isAdmin)) throw new AppError('NOT_FOUND', 'Practice not found.');
      return {
        strongFactorRequired: practice.strongFactorRequired,
        requiredByProvider: practice.requiredByProvider,
        mayChange: practice.isPrescriber || caller.isAdmin,
      };
    },

    async setPracticeSignInPolicy(ctx: FactorContext & { userId: string }, practiceId: string, strongFactorRequired: boolean) {
      const [caller, practice] = await Promise.all([
        repo.policyCallerOf(db, ctx.userId),
        repo.practicePolicyOf(db, ctx.userId, practiceId),
      ]);
      if (!practice || !caller || (!practice.isMember && !caller.isAdmin)) throw new AppError('NOT_FOUND', 'Practice not found.');
      if (!practice.isPrescriber && !caller.isAdmin) throw new AppError('FORBIDDEN', SIGN_IN_POLICY_MESSAGES.notPrescriber);
      await db.transaction(async (tx) => {
        await repo.setPracticePolicy(tx, practiceId, strongFactorRequired);
        await audit(tx, ctx, 'practice', practiceId, { strongFactorRequired });
      });
      return this.practiceSignInPolicy(ctx.userId, practiceId);
    },
  };
}
