/**
 * Periodic purge of rows nobody can use any more (expired sign-in rows, old idempotency keys), so those
 * tables stay small. Every instance may run it: each purge is an idempotent delete.
 */
import type { FastifyInstance } from 'fastify';

export type Purge = (now: Date) => Promise<Record<string, number>>;

/** Runs `job` every `seconds` from start-up to close (0: never); a failure is logged and the next round runs. */
export function scheduleEvery(app: FastifyInstance, name: string, seconds: number, job: () => Promise<unknown>): void {
  if (seconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (running) return;
      running = job()
        .catch((error: unknown) => app.log.error({ err: error }, `${name} failed`))
        .finally(() => {
          running = undefined;
        });
    }, seconds * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

export function scheduleHousekeeping(app: FastifyInstance, purges: Record<string, Purge>, intervalSeconds: number): void {
  if (intervalSeconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    for (const [name, purge] of Object.entries(purges)) {
      try {
        app.log.info({ purged: await purge(new Date()) }, `housekeeping: ${name} done`);
      } catch (error) {
        app.log.error({ err: error }, `housekeeping: ${name} failed`);
      }
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(run, intervalSeconds * 1000);
    // The purge must never keep the process alive on its own.
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
