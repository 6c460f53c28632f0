/** Remembered devices (30 days without a code) and resetting two-step verification. */
import type { Executor } from '../../db/client.ts';
import { type AuthServiceDeps, auditUser, type RequestContext } from './core.ts';
import * as repo from './repository.ts';

export interface TwoStepReset {
  devicesForgotten: number;
  codesCancelled: number;
  authenticatorRemoved: boolean;
  afterCommit: () => Promise<unknown>;
}

export function deviceUseCases(deps: AuthServiceDeps) {
  const { db } = deps;

  async function rememberedDevices(userId: string): Promise<number> {
    return repo.countRememberedDevices(db, userId, new Date());
  }

  /** "Forget remembered devices": every device, this one included, asks for a code at its next sign-in. */
  async function forgetRememberedDevices(userId: string, ctx: RequestContext): Promise<void> {
    await db.transaction(async (tx) => {
      const forgotten = await repo.deleteRememberedDevices(tx, userId);
      await auditUser(tx, userId, 'auth.devices.forgotten', ctx, { forgotten });
    });
  }

  /**
   * "Reset two-step verification" (an administrator, for someone who lost their phone): forget remembered devices and
   * pending codes, and remove the authenticator app and its recovery codes (issue 48); the next sign-in mails a code.
   * `afterCommit` mails the account's owner that their app was removed, once the caller's transaction commits.
   */
  async function resetTwoStep(tx: Executor, userId: string): Promise<TwoStepReset> {
    const devicesForgotten = await repo.deleteRememberedDevices(tx, userId);
    const codesCancelled = await repo.consumeOpenChallenges(tx, userId, new Date());
    const removed = await deps.factors?.removeAllByAdministrator(tx, userId);
    return {
      devicesForgotten,
      codesCancelled,
      authenticatorRemoved: removed !== undefined && removed !== null,
      afterCommit: removed ?? (async () => undefined),
    };
  }

  return { rememberedDevices, forgetRememberedDevices, resetTwoStep };
}
