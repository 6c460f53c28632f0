/**
 * Manage Accounts (admins only, spec §6; docs/decisions/0017-manage-accounts.md): the tenant's portal
 * sign-ins — list, invite, change role, two-step verification, disable and re-enable. Everyone else gets
 * 404. Every change is audited; disabling an account or changing its role ends its sessions at once.
 */
import {
  type Account,
  type AccountInvite,
  type AccountSearchResponse,
  type AccountUpdate,
  canManageAccounts,
  type PagedQuery,
  USER_ROLE_VALUES,
  USER_ROLES,
  type UserRole,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { actorAllowedBy } from '../../lib/actor.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

/** What Manage Accounts needs of the sign-in machinery (the auth service provides it; wired in app.ts). */
export interface AccountSessions {
  endAllSessions(userId: string): Promise<void>;
  recordInvitation(
    tx: Executor,
    user: { id: string; email: string; displayName: string },
    publicOrigin: string,
  ): Promise<() => Promise<boolean>>;
  resetTwoStep(
    tx: Executor,
    userId: string,
  ): Promise<{
    devicesForgotten: number;
    codesCancelled: number;
    authenticatorRemoved: boolean;
    afterCommit: () => Promise<unknown>;
  }>;
}

const accountOf = (row: repo.AccountRow): Account => ({
  id: row.id,
  userName: row.display_name,
  email: row.email,
  role: (USER_ROLE_VALUES as string[]).includes(row.role) ? (row.role as UserRole) : USER_ROLES.mdoUser,
  mdOfficeId: row.md_office_id,
  practiceName: row.practice_name,
  mfaEnabled: row.mfa_enabled,
  disabled: row.disabled,
  invited: row.invited,
});

/** The dotted user type a role starts with (spec §6: its first segment is the kind). */
function userTypeFor(role: UserRole): string {
  if (role === USER_ROLES.providerAdmin) return 'provider_admin';
  if (role === USER_ROLES.providerSales) return 'provider_sales';
  return 'mdo_user.staff';
}

export function createManageAccountsService(deps: { db: Database; sessions: AccountSessions }) {
  const { db, sessions } = deps;

  const admin = (ctx: SignedInContext) => actorAllowedBy(db, ctx.userId, canManageAccounts);

  const audit = (tx: Executor, ctx: SignedInContext, action: string, entityId: string, details: Record<string, unknown> = {}) =>
    writeAudit(tx, {
      actorUserId: ctx.userId,
      action,
      entityType: 'user',
      entityId,
      requestId: ctx.requestId,
      ip: ctx.ip,
      details,
    });

  async function account(tx: Executor, tenantId: string, userId: string): Promise<Account> {
    const row = await repo.findAccount(tx, tenantId, userId);
    if (!row) throw notFound('Account');
    return accountOf(row);
  }

  return {
    async search(ctx: SignedInContext, query: PagedQuery): Promise<AccountSearchResponse> {
      const actor = await admin(ctx);
      const { rows, total } = await repo.searchAccounts(db, { tenantId: actor.tenantId, ...query });
      return { total, records: rows.map(accountOf) };
    },

    async invite(ctx: SignedInContext, input: AccountInvite, publicOrigin: string): Promise<Account> {
      const actor = await admin(ctx);
      const { created, deliver } = await db.transaction(async (tx) => {
        if (await repo.emailTaken(tx, input.email)) {
          const message = 'An account with this email already exists.';
          throw new AppError('CONFLICT', message, [{ path: 'body.email', message }]);
        }
        const officeId = input.role === USER_ROLES.mdoUser ? input.mdOfficeId : null;
        if (officeId && !(await repo.officeOfTenant(tx, actor.tenantId, officeId))) {
          const message = 'Choose a practice from the list.';
          throw new AppError('VALIDATION_FAILED', message, [{ path: 'body.mdOfficeId', message }]);
        }
        const { id } = await repo.insertAccount(tx, {
          tenantId: actor.tenantId,
          email: input.email.toLowerCase(),
          displayName: input.userName,
          role: input.role,
          userType: userTypeFor(input.role),
          mdOfficeId: officeId,
          passwordHash: null,
        });
        await audit(tx, ctx, 'account.invite', id, { role: input.role });
        const send = await sessions.recordInvitation(tx, { id, email: input.email, displayName: input.userName }, publicOrigin);
        return { created: await account(tx, actor.tenantId, id), deliver: send };
      });
      await deliver();
      return created;
    },

    async update(ctx: SignedInContext, userId: string, input: AccountUpdate): Promise<Account> {
      const actor = await admin(ctx);
      const { updated, endSessions } = await db.transaction(async (tx) => {
        const before = await account(tx, actor.tenantId, userId);
        if (userId === actor.id && (input.disabled || input.role !== before.role)) {
          throw new AppError('CONFLICT', 'You cannot disable your own account or change your own role.');
        }
        if (input.role === USER_ROLES.mdoUser && !before.mdOfficeId) {
          const message = 'This account has no practice, so it cannot be an office user.';
          throw new AppError('VALIDATION_FAILED', message, [{ path: 'body.role', message }]);
        }
        await repo.updateAccount(tx, userId, {
          // A new role starts with that role's user type; an unchanged role keeps its own (e.g. prescriber).
          ...(input.role !== before.role ? { role: input.role, userType: userTypeFor(input.role) } : {}),
          mfaEnabled: input.mfaEnabled,
          disabledAt: input.disabled ? (before.disabled ? undefined : new Date()) : null,
        });
        const changed = (['role', 'mfaEnabled', 'disabled'] as const).filter((k) => before[k] !== input[k]);
        await audit(tx, ctx, 'account.update', userId, { fields: changed });
        return {
          updated: await account(tx, actor.tenantId, userId),
          // Disabled, or given another role: every session ends, and all it derived with it (issue 42).
          endSessions: (input.disabled && !before.disabled) || input.role !== before.role,
        };
      });
      if (endSessions) await sessions.endAllSessions(userId);
      return updated;
    },

    async resetTwoStep(ctx: SignedInContext, userId: string): Promise<Account> {
      const actor = await admin(ctx);
      const { result, afterCommit } = await db.transaction(async (tx) => {
        const found = await account(tx, actor.tenantId, userId);
        const { afterCommit: after, ...outcome } = await sessions.resetTwoStep(tx, userId);
        await audit(tx, ctx, 'account.two-step.reset', userId, outcome);
        return { result: found, afterCommit: after };
      });
      await afterCommit();
      return result;
    },
  };
}
export type ManageAccountsService = ReturnType<typeof createManageAccountsService>;
