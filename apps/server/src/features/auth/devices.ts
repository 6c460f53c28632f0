/** Remembered devices (30 days without a code) and resetting two-step verification. */
import type { Executor } from '../../db/client.ts';
import { type AuthServiceDeps, auditUser, type RequestContext } from './core.ts';
import * as repo from './repository.ts';

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

  /** "Reset two-step verification": forget remembered devices and pending codes; the next sign-in mails a new code. */
  async function resetTwoStep(tx: Executor, userId: string): Promise<{ devicesForgotten: number; codesCancelled: number }> {
    const devicesForgotten = await repo.deleteRememberedDevices(tx, userId);
    const codesCancelled = await repo.consumeOpenChallenges(tx, userId, new Date());
    return { devicesForgotten, codesCancelled };
  }

  return { rememberedDevices, forgetRememberedDevices, resetTwoStep };
}
