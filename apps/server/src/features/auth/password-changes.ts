/** Passwords: the mailed reset link, the reset itself, a signed-in change, and a new account's invitation. */
import { PASSWORD_RESET_MESSAGES } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { AUTH_LIMITS, type AuthCore, type AuthServiceDeps, auditUser, type RequestContext } from './core.ts';
import * as repo from './repository.ts';

export function passwordUseCases(deps: AuthServiceDeps, core: AuthCore) {
  const { db, mailer } = deps;
  const { denyFamilies } = core;

  /** Same answer whether or not the e-mail has an account (no enumeration); mails a 30-minute link. */
  async function requestPasswordReset(emailInput: string, ctx: RequestContext, publicOrigin: string): Promise<void> {
    const user = await repo.findUserForLogin(db, emailInput.trim().toLowerCase());
    if (!user || user.disabledAt || !user.passwordHash) {
      await auditUser(db, null, 'auth.reset.requested', ctx, { known: false });
      return;
    }
    const token = randomToken();
    const mail = {
      to: user.email,
      subject: 'Reset your HCP Portal password',
      text: `Someone asked to reset the password of your HCP Portal account. To choose a new password, open ${publicOrigin}/password-reset/${token} within 30 minutes. If it was not you, ignore this e-mail.`,
      kind: 'password-reset',
    };
    const outboxId = await db.transaction(async (tx) => {
      await repo.insertResetToken(tx, {
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + AUTH_LIMITS.resetTokenSeconds * 1000),
      });
      await auditUser(tx, user.id, 'auth.reset.requested', ctx, { known: true });
      return mailer.enqueue(tx, mail);
    });
    await mailer.deliver(outboxId, mail);
  }

  async function verifyResetToken(token: string): Promise<void> {
    if (!(await repo.findUsableResetToken(db, sha256(token)))) throw new AppError('GONE', PASSWORD_RESET_MESSAGES.expired);
  }

  /** Sets the password, uses the token once and ends every session; the next sign-in still asks for MFA. */
  async function resetPassword(token: string, password: string, ctx: RequestContext): Promise<void> {
    const row = await repo.findUsableResetToken(db, sha256(token));
    if (!row) throw new AppError('GONE', PASSWORD_RESET_MESSAGES.expired);
    const passwordHash = await hashPassword(password);
    const now = new Date();
    const families = await db.transaction(async (tx) => {
      if (!(await repo.useResetToken(tx, row.id))) return null;
      await repo.setPassword(tx, row.userId, passwordHash);
      const revoked = await repo.revokeAllFamiliesOfUser(tx, row.userId, now);
      const devicesForgotten = await repo.deleteRememberedDevices(tx, row.userId);
      await auditUser(tx, row.userId, 'auth.reset.completed', ctx, { sessionsEnded: revoked.length, devicesForgotten });
      return revoked;
    });
    if (!families) throw new AppError('GONE', PASSWORD_RESET_MESSAGES.expired);
    await denyFamilies(families, now);
  }

  /** A signed-in change needs the current password; the other sessions of the user end, this one stays. */
  async function changePassword(
    claims: { userId: string; familyId: string },
    currentPassword: string,
    newPassword: string,
    ctx: RequestContext,
  ): Promise<void> {
    const existing = await repo.findPasswordHash(db, claims.userId);
    if (!existing || !(await verifyPassword(existing, currentPassword))) {
      throw new AppError('VALIDATION_FAILED', PASSWORD_RESET_MESSAGES.currentIncorrect, [
        { path: 'body.currentPassword', message: PASSWORD_RESET_MESSAGES.currentIncorrect },
      ]);
    }
    const passwordHash = await hashPassword(newPassword);
    const now = new Date();
    const families = await db.transaction(async (tx) => {
      await repo.setPassword(tx, claims.userId, passwordHash);
      const revoked = await repo.revokeAllFamiliesOfUser(tx, claims.userId, now, claims.familyId);
      const devicesForgotten = await repo.deleteRememberedDevices(tx, claims.userId);
      await auditUser(tx, claims.userId, 'auth.password.changed', ctx, { sessionsEnded: revoked.length, devicesForgotten });
      return revoked;
    });
    await denyFamilies(families, now);
  }

  /**
   * Records, inside the caller's transaction, the invitation of a new account: a single-use link to choose a
   * password (the reset-token mechanism, valid for a week); returns the delivery to run after commit.
   */
  async function recordInvitation(
    tx: Executor,
    user: { id: string; email: string; displayName: string },
    publicOrigin: string,
  ): Promise<() => Promise<boolean>> {
    const token = randomToken();
    const mail = {
      to: user.email,
      subject: 'You are invited to the HCP Portal',
      text: `Hello ${user.displayName}, an administrator created an HCP Portal account for you. To choose your password, open ${publicOrigin}/password-reset/${token} within 7 days.`,
      kind: 'invitation',
    };
    await repo.insertResetToken(tx, {
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + AUTH_LIMITS.invitationSeconds * 1000),
    });
    const outboxId = await mailer.enqueue(tx, mail);
    return () => mailer.deliver(outboxId, mail);
  }

  return { requestPasswordReset, verifyResetToken, resetPassword, changePassword, recordInvitation };
}
