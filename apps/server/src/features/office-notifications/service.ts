/**
 * The practices' e-mail digests (issue 20, spec §4): a practice that chose e-mail (or both) gets, at most once per
 * interval, one mail counting the pharmacy's new requests per category, with a link to sign in. Counts only: no
 * patient, no drug (minimum necessary). Each practice is handled in its own transaction under a row lock, so
 * instances side by side never send a digest twice; the mail is recorded in the outbox in that transaction and
 * delivered after it commits.
 */
import {
  type ActionType,
  calendarDateOf,
  DIGEST_INTERVAL_MINUTES,
  isActionType,
  officeDigestMail,
  ROUTES,
  toIsoDate,
} from '@hcp/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';
import * as repo from './repository.ts';

export function createOfficeDigests(deps: {
  db: Database;
  mailer: Mailer;
  log: FastifyBaseLogger;
  now: () => Date;
  portalUrl: string;
  intervalMinutes?: number;
}) {
  const interval = deps.intervalMinutes ?? DIGEST_INTERVAL_MINUTES;

  async function digestOf(officeId: string, at: Date): Promise<{ outboxId: string; mail: Mail } | null> {
    return deps.db.transaction(async (tx) => {
      const digest = await repo.lockDigest(tx, officeId);
      if (!digest || digest.lastSentAt.getTime() > at.getTime() - interval * 60_000) return null;
      const rows = await repo.newRequests(tx, officeId, digest.lastEventId);
      if (rows.length === 0) return null;
      const newRequests: Partial<Record<ActionType, number>> = {};
      for (const row of rows) if (isActionType(row.category)) newRequests[row.category] = row.n;
      const { subject, text } = officeDigestMail({
        practiceName: digest.name,
        newRequests,
        waiting: await repo.waitingCount(tx, officeId, toIsoDate(calendarDateOf(at))),
        link: `${deps.portalUrl}${ROUTES.actionNeeded}`,
      });
      const mail: Mail = { to: digest.email, subject, text, kind: 'office-digest' };
      const outboxId = await deps.mailer.enqueue(tx, mail);
      await repo.recordDigest(tx, officeId, at, Math.max(...rows.map((r) => Number(r.lastId))));
      return { outboxId, mail };
    });
  }

  return {
    /** One round: every due practice gets its digest. Answers how many were sent. */
    async runOnce(): Promise<number> {
      const at = deps.now();
      let sent = 0;
      for (const officeId of await repo.duePractices(deps.db, at, interval)) {
        try {
          const digest = await digestOf(officeId, at);
          if (digest && (await deps.mailer.deliver(digest.outboxId, digest.mail))) sent += 1;
        } catch (error) {
          deps.log.error({ err: error, mdOfficeId: officeId }, 'office digest failed');
        }
      }
      return sent;
    },
  };
}
export type OfficeDigests = ReturnType<typeof createOfficeDigests>;
