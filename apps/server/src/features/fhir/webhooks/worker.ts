/**
 * The webhook worker of one instance: woken by every committed decision (NOTIFY) and at least every `pollMs`, it
 * dispatches new decisions and sends what is due, and goes again at once while there is more. Any number of
 * instances run it side by side (the dispatcher is one at a time by lock, deliveries are claimed with skip locked
 * under a lease). Stopping waits for the round in flight.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client.ts';
import type { OutboundGuard } from '../../../lib/outbound/guard.ts';
import { createDeliverer, type DeliveryLimits } from './deliver.ts';
import { type AttachmentLinks, dispatchDecisions } from './dispatch.ts';

export interface WebhookWorker {
  /** One round: dispatch, then deliver what is due. Tests and the bench drive it by hand. */
  runOnce(): Promise<{ dispatched: number; attempted: number }>;
  start(): void;
  stop(): Promise<void>;
}

export function createWebhookWorker(deps: {
  db: Database;
  log: FastifyBaseLogger;
  /** Where links in messages point, and how an appeal's attachments are linked. */
  links: AttachmentLinks;
  pollMs: number;
  limits: DeliveryLimits;
  /** The one door for outbound calls (lib/outbound/guard.ts). */
  guard: OutboundGuard;
  /** Subscribes to decision commits of every instance (NOTIFY), so a decision goes out at once, not at the next poll. */
  listen?: (onNotify: () => void) => Promise<() => Promise<void>>;
}): WebhookWorker {
  const deliverDue = createDeliverer({ db: deps.db, log: deps.log, limits: deps.limits, guard: deps.guard });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let wakeAgain = false;
  let stopped = true;
  let unlisten: (() => Promise<void>) | undefined;

  async function runOnce() {
    const dispatched = await dispatchDecisions(deps.db, deps.links);
    const attempted = await deliverDue();
    return { dispatched, attempted };
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      wakeAgain = false;
      running = runOnce()
        .then((done) => done.dispatched + done.attempted > 0)
        .catch((error: unknown) => {
          deps.log.error({ err: error }, 'webhook worker round failed');
          return false;
        })
        .then((more) => {
          running = undefined;
          schedule(more || wakeAgain ? 0 : deps.pollMs);
        });
    }, delayMs);
    // The worker must never keep the process alive on its own.
    timer.unref();
  }

  /** A decision committed somewhere: go now, or right after the round in flight. */
  function wake() {
    if (stopped) return;
    if (running) wakeAgain = true;
    else schedule(0);
  }

  return {
    runOnce,
    start() {
      if (!stopped || deps.pollMs <= 0) return;
      stopped = false;
      schedule(deps.pollMs);
      deps
        .listen?.(wake)
        .then((off) => {
          unlisten = off;
        })
        .catch((error: unknown) => deps.log.warn({ err: error }, 'webhook worker: no LISTEN, polling only'));
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await unlisten?.();
      await running?.catch(() => undefined);
    },
  };
}
