/** What every sign-in factor use case shares: its audit row, the mail to the account's owner, asking the password again. */
import { SIGN_IN_POLICY_MESSAGES } from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { mustEnrol, signInPolicyOf } from '../../lib/sign-in-policy.ts';
import * as repo from './repository.ts';

export interface FactorContext {
  ip: string | null;
  requestId: string;
}

export interface SignInFactorDeps {
  db: Database;
  mailer: Mailer;
  signingKey: string;
  /** The clock codes are checked by (tests move it). */
  now?: () => number;
}

export const CURRENT_PASSWORD_WRONG = 'The current password is not correct.';

export function factorCommon({ db, mailer }: SignInFactorDeps) {
  return {
    async audit(tx: Executor, userId: string, action: string, ctx: FactorContext, details: Record<string, unknown> = {}) {
      await writeAudit(tx, { actorUserId: userId, action, entityType: 'user', entityId: userId, ...ctx, details });
    },

    /** Records the change's mail in the caller's transaction; the returned function delivers it after commit. */
    async mailOwner(tx: Executor, userId: string, subject: string, text: string): Promise<() => Promise<unknown>> {
      const to = (await repo.accountOf(tx, userId))?.email;
      if (!to) return async () => false;
      const mail = {
        to,
        subject,
        text: `${text} If this was not you, change your password and contact your practice administrator.`,
        kind: 'sign-in-factor',
      };
      const outboxId = await mailer.enqueue(tx, mail);
      return () => mailer.deliver(outboxId, mail);
    },

    /**
     * In the removal's transaction, after the factor is gone: where a strong factor is required (decision 0060), the
     * last one is not removed (409, the transaction rolls back).
     */
    async assertStillStrong(tx: Executor, userId: string): Promise<void> {
      if (mustEnrol(await signInPolicyOf(tx, userId))) throw new AppError('CONFLICT', SIGN_IN_POLICY_MESSAGES.lastFactor);
    },

    /** A change that weakens sign-in asks for the password again; a wrong one is said at its field. */
    async assertPassword(userId: string, currentPassword: string): Promise<void> {
      const hash = (await repo.accountOf(db, userId))?.passwordHash;
      if (!hash || !(await verifyPassword(hash, currentPassword))) {
        throw new AppError('VALIDATION_FAILED', CURRENT_PASSWORD_WRONG, [
          { path: 'body.currentPassword', message: CURRENT_PASSWORD_WRONG },
        ]);
      }
    },
  };
}
