/**
 * Delivery: a leased delivery is signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature;
 * both secrets sign during a rotation's overlap) and POSTed with a time limit. 2xx: delivered. 410: the endpoint
 * is turned off and the delivery waits for it. Anything else: retried with growing, jittered delays until a day
 * has passed since the first attempt, then dead-lettered (an admin can redeliver it).
 */
import { randomUUID } from 'node:crypto';
import { retryDelayMs } from '@hcp/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../../../db/client.ts';
import { type OutboundGuard, OutboundRefusedError } from '../../../lib/outbound/guard.ts';
import * as repo from './repository.ts';

export interface DeliveryLimits {
  retryBaseMs: number;
  retryCapMs: number;
  giveUpMs: number;
  timeoutMs: number;
}

/** The webhook-signature header: one `v1,<sig>` per secret in use, space-separated (Standard Webhooks). */
export function signatureHeader(
  delivery: Pick<repo.ClaimedDelivery, 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  id: string,
  at: Date,
  body: string,
): string {
  const secrets = [delivery.secret];
  if (delivery.previousSecret && delivery.previousSecretUntil && delivery.previousSecretUntil > at) {
    secrets.push(delivery.previousSecret);
  }
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ');
}

/** What a delivery to an internal address records (the same for every kind of internal address: no scanning). */
export const NOT_CALLED_MESSAGE = 'Not sent: the address is inside a private network.';

type Attempt = { ok: true; httpStatus: number } | { ok: false; httpStatus: number | null; error: string };

async function post(delivery: repo.ClaimedDelivery, timeoutMs: number, guard: OutboundGuard): Promise<Attempt> {
  const at = new Date();
  try {
    // Through the outbound guard: an address inside our network is refused before any connection (issue 43), so the
    // deliveries list cannot be used to scan internal ports.
    const response = await guard.fetch(delivery.url, {
      method: 'POST',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/fhir+json',
        'user-agent': 'HCP-Portal-Webhooks/1',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatureHeader(delivery, delivery.id, at, delivery.body),
      },
      body: delivery.body,
    });
    // The body is the receiver's business: read and dropped so the connection is freed, never stored.
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, httpStatus: response.status };
    return { ok: false, httpStatus: response.status, error: `The receiver answered ${response.status}.` };
  } catch (error) {
    const name = (error as Error).name;
    const error_ =
      name === 'TimeoutError'
        ? `No answer within ${timeoutMs / 1000} s.`
        : error instanceof OutboundRefusedError
          ? NOT_CALLED_MESSAGE
          : 'Could not connect to the receiver.';
    return { ok: false, httpStatus: null, error: error_ };
  }
}

export function createDeliverer(deps: {
  db: Database;
  log: FastifyBaseLogger;
  limits: DeliveryLimits;
  guard: OutboundGuard;
  batch?: number;
}) {
  const { db, log, limits } = deps;
  const leaseMs = limits.timeoutMs * 3 + 5_000;

  async function settle(delivery: repo.ClaimedDelivery, leaseToken: string, attempt: Attempt) {
    if (attempt.ok) {
      await repo.finishAttempt(db, delivery.id, leaseToken, { status: 'delivered', httpStatus: attempt.httpStatus });
      return;
    }
    const now = Date.now();
    if (attempt.httpStatus === 410) await repo.disableGone(db, delivery.endpointId);
    const next = new Date(
      now + retryDelayMs(delivery.attempts, Math.random(), { baseMs: limits.retryBaseMs, capMs: limits.retryCapMs }),
    );
    const givenUp = attempt.httpStatus !== 410 && next.getTime() - delivery.firstAttemptAt.getTime() > limits.giveUpMs;
    await repo.finishAttempt(db, delivery.id, leaseToken, {
      status: givenUp ? 'dead' : 'pending',
      httpStatus: attempt.httpStatus,
      error: attempt.error,
      nextAttemptAt: next,
    });
    // Ids and statuses only: the body holds patient references and the receiver's address may name the client.
    log.warn(
      {
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        httpStatus: attempt.httpStatus,
        attempts: delivery.attempts,
        givenUp,
      },
      'webhook delivery failed',
    );
  }

  /** Claims what is due and sends it; answers how many were attempted. */
  return async function deliverDue(): Promise<number> {
    const leaseToken = randomUUID();
    const claimed = await repo.claimDue(db, leaseToken, leaseMs, deps.batch ?? 20);
    await Promise.all(
      claimed.map(async (delivery) => settle(delivery, leaseToken, await post(delivery, limits.timeoutMs, deps.guard))),
    );
    return claimed.length;
  };
}
