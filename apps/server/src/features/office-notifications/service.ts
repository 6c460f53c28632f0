/**
 * The practices' notices (issue 20, spec §4; decision 0025): when the pharmacy has sent new requests, a practice
 * hears of it at most once per interval, as it chose — `email`: one mail to the practice's address and to each of
 * its portal users who wants it (their own Preferences and their HCP record's e-mail choice); `fax`: a one-page
 * cover sheet with a one-time link; `both`; `off`: nothing. Counts only: no patient, no drug (minimum necessary).
 *
 * Each practice is handled in its own transaction under a row lock, so instances side by side never notify twice;
 * the notices are written in that transaction and sent after it commits, and again later until sent or given up.
 */
import { randomBytes } from 'node:crypto';
import {
  type ActionType,
  type CommunicationMode,
  calendarDateOf,
  DIGEST_INTERVAL_MINUTES,
  formatDateTime,
  formatNoticeCode,
  isActionType,
  NOTICE_CODE_ALPHABET,
  NOTICE_CODE_LENGTH,
  NOTICE_LINK_DAYS,
  noticeChannelsOf,
  officeDigestMail,
  ROUTES,
  toIsoDate,
  userGetsDigestMail,
} from '@hcp/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.ts';
import { sha256 } from '../../lib/crypto.ts';
import { coverSheetPdf } from './cover-sheet.ts';
import type { NoticeSender } from './deliver.ts';
import * as repo from './repository.ts';

/** 16 characters of Crockford base 32 (80 bits): unguessable, yet typeable from a fax. */
function noticeCode(): string {
  return [...randomBytes(NOTICE_CODE_LENGTH)].map((b) => NOTICE_CODE_ALPHABET[b % 32]).join('');
}

/**
 * How a time reads on the cover sheet: the portal's one date-time format (MM/DD/YYYY h:mm am) on the
 * server's clock, with the zone named, since the sheet cannot know the reader's.
 */
const readable = (at: Date) => {
  const zone = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return `${formatDateTime(at)} ${zone?.value ?? 'UTC'}`;
};

export function createOfficeDigests(deps: {
  db: Database;
  sender: NoticeSender;
  log: FastifyBaseLogger;
  now: () => Date;
  portalUrl: string;
  intervalMinutes?: number;
}) {
  const interval = deps.intervalMinutes ?? DIGEST_INTERVAL_MINUTES;

  async function mailRecipients(
    tx: Executor,
    officeId: string,
    practice: { email: string | null; communicationMode: CommunicationMode },
  ) {
    if (!noticeChannelsOf(practice.communicationMode).email) return [];
    const users = (await repo.practiceUsers(tx, officeId)).filter((u) =>
      userGetsDigestMail({
        practiceMode: practice.communicationMode,
        hcp: u.hcpMode && u.hcpEmailOptIn ? { communicationMode: u.hcpMode, emailOptIn: u.hcpEmailOptIn } : null,
        userWantsNotices: u.wantsNotices,
      }),
    );
    const addresses = [...(practice.email ? [practice.email] : []), ...users.map((u) => u.email)];
    // One mail per address, whoever else it is for (the practice's address is often a person's too).
    return [...new Map(addresses.map((a) => [a.toLowerCase(), a])).values()];
  }

  /** The practice's notices, written in one transaction with its digest record; their ids, or null when not due. */
  async function noticesOf(officeId: string, at: Date): Promise<string[] | null> {
    return deps.db.transaction(async (tx) => {
      const digest = await repo.lockDigest(tx, officeId);
      if (!digest || digest.lastSentAt.getTime() > at.getTime() - interval * 60_000) return null;
      const rows = await repo.newRequests(tx, officeId, digest.lastEventId);
      if (rows.length === 0) return null;
      const newRequests: Partial<Record<ActionType, number>> = {};
      for (const row of rows) if (isActionType(row.category)) newRequests[row.category] = row.n;
      const waiting = await repo.waitingCount(tx, officeId, toIsoDate(calendarDateOf(at)));
      const counts = { practiceName: digest.name, newRequests, waiting };
      const notices: repo.NoticeInsert[] = [];
      const mail = officeDigestMail({ ...counts, link: `${deps.portalUrl}${ROUTES.actionNeeded}` });
      for (const to of await mailRecipients(tx, officeId, digest)) {
        notices.push({
          mdOfficeId: officeId,
          channel: 'email',
          recipient: to,
          subject: mail.subject,
          body: mail.text,
          nextAttemptAt: at,
        });
      }
      if (noticeChannelsOf(digest.communicationMode).fax && digest.fax) {
        const code = noticeCode();
        const expiresAt = new Date(at.getTime() + NOTICE_LINK_DAYS * 86_400_000);
        await repo.insertLink(tx, { tokenHash: sha256(code), mdOfficeId: officeId, expiresAt });
        const link = `${deps.portalUrl}${ROUTES.noticeLink.replace(':code', formatNoticeCode(code))}`;
        const pdf = await coverSheetPdf({ ...counts, link, expires: readable(expiresAt), sentAt: readable(at) }, at);
        notices.push({
          mdOfficeId: officeId,
          channel: 'fax',
          recipient: digest.fax,
          subject: mail.subject,
          body: pdf.toString('base64'),
          nextAttemptAt: at,
        });
      }
      const ids = await repo.insertNotices(tx, notices);
      // Recorded even with nobody to tell (no address on file): the same requests are not looked at again.
      await repo.recordDigest(tx, officeId, at, Math.max(...rows.map((r) => Number(r.lastId))));
      return ids;
    });
  }

  return {
    /**
     * One round: every due practice gets its notices, sent at once; notices that failed before and are due again
     * are retried. Answers how many practices were notified.
     */
    async runOnce(): Promise<number> {
      const at = deps.now();
      let notified = 0;
      for (const officeId of await repo.duePractices(deps.db, at, interval)) {
        try {
          const ids = await noticesOf(officeId, at);
          if (!ids) continue;
          if (ids.length > 0) notified += 1;
          await deps.sender.sendDue(ids);
        } catch (error) {
          deps.log.error({ err: error, mdOfficeId: officeId }, 'office notices failed');
        }
      }
      await deps.sender.sendDue();
      return notified;
    },
  };
}
export type OfficeDigests = ReturnType<typeof createOfficeDigests>;
