/**
 * Periodic purge of rows nobody can use any more (expired sign-in rows, old idempotency keys), so those
 * tables stay small. Each purge is an idempotent delete; the database's are run once per cluster (a lease).
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

/** How long a round's lease lasts: most of the interval, so the next round (on any instance) can take it. */
export const leaseSecondsOf = (intervalSeconds: number) => Math.max(30, Math.floor(intervalSeconds * 0.9));

export interface Housekeeping {
  /** One round: the purges run when this instance takes the cluster's lease for it. */
  runOnce(now?: Date): Promise<{ cluster: boolean }>;
}

/**
 * Housekeeping once per cluster (issue 24): the shared database's rows and the shared file store's orphans are
 * purged by whichever instance takes the round's lease.
 */
export function createHousekeeping(
  app: FastifyInstance,
  options: {
    cluster: Record<string, Purge>;
    intervalSeconds: number;
    takeLease: (seconds: number) => Promise<boolean>;
  },
): Housekeeping {
  const runAll = async (purges: Record<string, Purge>, now: Date) => {
    for (const [name, purge] of Object.entries(purges)) {
      try {
        app.log.info({ purged: await purge(now) }, `housekeeping: ${name} done`);
      } catch (error) {
        app.log.error({ err: error }, `housekeeping: ${name} failed`);
      }
    }
  };
  const runOnce = async (now = new Date()) => {
    const cluster = await options.takeLease(leaseSecondsOf(options.intervalSeconds)).catch((error: unknown) => {
      app.log.error({ err: error }, 'housekeeping: could not take the lease');
      return false;
    });
    if (cluster) await runAll(options.cluster, now);
    return { cluster };
  };
  scheduleEvery(app, 'housekeeping', options.intervalSeconds, runOnce);
  return { runOnce };
}
