/**
 * Sends notices: a leased notice goes out by its channel (the mail transport, or the fax gateway) and its outcome
 * is recorded under the lease. A failure is tried again with growing, jittered delays (contract NOTICE_RETRY) until
 * a day has passed since the notice was made, then given up; a refusal that will not change (a bad fax number) is
 * given up at once. A sender that dies mid-send leaves a lapsed lease: the notice is sent again (at least once).
 */
import { randomUUID } from 'node:crypto';
import { NOTICE_RETRY, retryDelayMs } from '@hcp/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { type FaxTransport, PermanentFaxError } from '../../lib/fax-gateway.ts';
import type { MailTransport } from '../../lib/mailer.ts';
import * as repo from './repository.ts';

export function createNoticeSender(deps: {
  db: Database;
  mail: MailTransport;
  fax: FaxTransport;
  log: FastifyBaseLogger;
  now: () => Date;
  limits?: typeof NOTICE_RETRY;
}) {
  const limits = deps.limits ?? NOTICE_RETRY;
  const leaseMs = limits.timeoutMs * 2 + 5_000;

  /** Answers the fax gateway's id, or '' for a mail. */
  async function send(notice: repo.ClaimedNotice): Promise<string> {
    if (notice.channel === 'fax') {
      return deps.fax.send({ to: notice.recipient, pdf: Buffer.from(notice.body, 'base64'), reference: notice.id });
    }
    await deps.mail.send({ to: notice.recipient, subject: notice.subject, text: notice.body, kind: 'office-digest' });
    return '';
  }

  async function attempt(notice: repo.ClaimedNotice, leaseToken: string): Promise<boolean> {
    try {
      const externalId = await send(notice);
      await repo.finishNotice(deps.db, notice.id, leaseToken, { status: 'sent', at: deps.now(), externalId });
      return true;
    } catch (error) {
      const at = deps.now();
      const next = new Date(at.getTime() + retryDelayMs(notice.attempts, Math.random(), limits));
      const givenUp = error instanceof PermanentFaxError || next.getTime() - notice.createdAt.getTime() > limits.giveUpMs;
      const message = error instanceof Error ? error.message : 'Sending failed.';
      // The notice id and channel only: the recipient is a practice's address, and the text is not logged.
      deps.log.warn({ noticeId: notice.id, channel: notice.channel, attempts: notice.attempts, givenUp }, 'office notice failed');
      await repo.finishNotice(deps.db, notice.id, leaseToken, {
        status: givenUp ? 'dead' : 'pending',
        at,
        nextAttemptAt: next,
        error: message.slice(0, 300),
      });
      return false;
    }
  }

  return {
    /** Sends due notices (or only `ids`, just made); answers how many went out. */
    async sendDue(ids?: string[], limit = 50): Promise<number> {
      const at = deps.now();
      const token = randomUUID();
      const claimed = await repo.claimDue(deps.db, at, { token, until: new Date(at.getTime() + leaseMs) }, limit, ids);
      let sent = 0;
      for (const notice of claimed) if (await attempt(notice, token)) sent += 1;
      return sent;
    },
  };
}
export type NoticeSender = ReturnType<typeof createNoticeSender>;
