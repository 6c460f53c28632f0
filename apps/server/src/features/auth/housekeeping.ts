/**
 * Periodic purge of sign-in rows nobody can use any more (expired deny-list entries, refresh tokens,
 * MFA challenges, reset tokens, remembered devices, old sign-in attempts), so those tables stay small.
 * Every instance may run it: the deletes are idempotent.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { purgeExpired } from './repository.ts';

export function scheduleSignInHousekeeping(app: FastifyInstance, db: Database, intervalSeconds: number): void {
  if (intervalSeconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    try {
      const purged = await purgeExpired(db, new Date());
      app.log.info({ purged }, 'sign-in housekeeping done');
    } catch (error) {
      app.log.error({ err: error }, 'sign-in housekeeping failed');
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(run, intervalSeconds * 1000);
    // The purge must never keep the process alive on its own.
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
