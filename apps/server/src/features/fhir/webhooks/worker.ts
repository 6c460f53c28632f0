/**
 * The webhook worker of one instance: every `pollMs` it dispatches new decisions and sends what is due, and goes
 * again at once while there is more. Any number of instances run it side by side (the dispatcher is one at a time
 * by lock, deliveries are claimed with skip locked under a lease). Stopping waits for the round in flight.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { createDeliverer, type DeliveryLimits } from './deliver.ts';
import { dispatchDecisions } from './dispatch.ts';

export interface WebhookWorker {
  /** One round: dispatch, then deliver what is due. Tests and the bench drive it by hand. */
  runOnce(): Promise<{ dispatched: number; attempted: number }>;
  start(): void;
  stop(): Promise<void>;
}

export function createWebhookWorker(deps: {
  db: Database;
  log: FastifyBaseLogger;
  baseUrl: string;
  pollMs: number;
  limits: DeliveryLimits;
}): WebhookWorker {
  const deliverDue = createDeliverer({ db: deps.db, log: deps.log, limits: deps.limits });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  async function runOnce() {
    const dispatched = await dispatchDecisions(deps.db, deps.baseUrl);
    const attempted = await deliverDue();
    return { dispatched, attempted };
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .then((done) => schedule(done.dispatched + done.attempted > 0 ? 0 : deps.pollMs))
        .catch((error: unknown) => {
          deps.log.error({ err: error }, 'webhook worker round failed');
          schedule(deps.pollMs);
        });
    }, delayMs);
    // The worker must never keep the process alive on its own.
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (!stopped || deps.pollMs <= 0) return;
      stopped = false;
      schedule(deps.pollMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
