/**
 * SQL of the practices' notices: who is due, what is new since the last digest, who hears of it, the notices
 * themselves (claimed under a lease like webhook deliveries) and the fax's one-time links.
 */
import { type CommunicationMode, EVENT_TYPES, USER_ROLES } from '@hcp/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { noticeLinks, officeNotices } from '../../db/schema.ts';
import { needsActionSql, refillDueSql } from '../../lib/prescription-sql.ts';

type Rows<T> = { rows: T[] };
const requested = sql`${EVENT_TYPES.pharmacyRequested}`;

/** Practices that have not turned communication off, got no digest within the interval and have new requests. */
export async function duePractices(db: Executor, now: Date, intervalMinutes: number) {
  const result = (await db.execute(sql`
    select o.id from md_offices o left join office_digests d on d.md_office_id = o.id
    where o.deleted_at is null and o.communication_mode <> 'off'
      and (d.last_sent_at is null or d.last_sent_at <= ${now}::timestamptz - ${`${intervalMinutes} minutes`}::interval)
      and exists (select 1 from prescription_events e join prescriptions rx on rx.id = e.prescription_id
        where rx.md_office_id = o.id and e.type = ${requested} and e.id > coalesce(d.last_event_id, 0))
    limit 100`)) as unknown as Rows<{ id: string }>;
  return result.rows.map((r) => r.id);
}

/** The practice's digest row, locked for this instance (null when another instance holds it). */
export async function lockDigest(db: Executor, officeId: string) {
  await db.execute(sql`insert into office_digests (md_office_id, last_sent_at, last_event_id)
    values (${officeId}, 'epoch', 0) on conflict do nothing`);
  const result = (await db.execute(sql`
    select d.last_sent_at as "lastSentAt", d.last_event_id::float8 as "lastEventId", o.name, o.email, o.fax,
      o.communication_mode as "communicationMode"
    from office_digests d join md_offices o on o.id = d.md_office_id
    where d.md_office_id = ${officeId} for update of d skip locked`)) as unknown as Rows<{
    lastSentAt: Date | string;
    lastEventId: number;
    name: string;
    email: string | null;
    fax: string | null;
    communicationMode: CommunicationMode;
  }>;
  const row = result.rows[0];
  return row ? { ...row, lastSentAt: new Date(row.lastSentAt), lastEventId: Number(row.lastEventId) } : null;
}

/** New pharmacy requests of the practice since an event id, per Action Needed category, and the newest id. */
export async function newRequests(db: Executor, officeId: string, sinceEventId: number) {
  const result = (await db.execute(sql`
    select e.data->>'category' as category, count(*)::int as n, max(e.id)::float8 as "lastId"
    from prescription_events e join prescriptions rx on rx.id = e.prescription_id
    where rx.md_office_id = ${officeId} and e.type = ${requested} and e.id > ${sinceEventId}
    group by 1`)) as unknown as Rows<{ category: string; n: number; lastId: number }>;
  return result.rows;
}

/** Everything waiting at the practice today (the mail's "in all"). */
export async function waitingCount(db: Executor, officeId: string, todayIso: string): Promise<number> {
  const result = (await db.execute(sql`select count(*)::int as n from prescriptions rx
    where rx.md_office_id = ${officeId} and ${needsActionSql('rx', refillDueSql('rx', todayIso))}`)) as unknown as Rows<{
    n: number;
  }>;
  return result.rows[0]?.n ?? 0;
}

export async function recordDigest(db: Executor, officeId: string, at: Date, lastEventId: number) {
  await db.execute(sql`update office_digests set last_sent_at = ${at}, last_event_id = ${lastEventId}
    where md_office_id = ${officeId}`);
}

/** The practice's portal users who may get its mail, with their own choice and their HCP record's preferences. */
export async function practiceUsers(db: Executor, officeId: string) {
  const result = (await db.execute(sql`
    select u.email, u.new_request_notices as "wantsNotices", s.communication_mode as "hcpMode", s.email_opt_in as "hcpEmailOptIn"
    from users u left join md_staff s on s.id = u.md_staff_id and s.deleted_at is null
    where u.md_office_id = ${officeId} and u.role = ${USER_ROLES.mdoUser} and u.disabled_at is null
    order by u.email`)) as unknown as Rows<{
    email: string;
    wantsNotices: boolean;
    hcpMode: CommunicationMode | null;
    hcpEmailOptIn: 'email' | 'doNot' | null;
  }>;
  return result.rows;
}

// ---- notices ----

export type NoticeInsert = typeof officeNotices.$inferInsert;

export async function insertNotices(db: Executor, rows: NoticeInsert[]): Promise<string[]> {
  if (rows.length === 0) return [];
  return (await db.insert(officeNotices).values(rows).returning({ id: officeNotices.id })).map((r) => r.id);
}

export interface ClaimedNotice {
  id: string;
  channel: 'email' | 'fax';
  recipient: string;
  subject: string;
  body: string;
  attempts: number;
  createdAt: Date;
}

/**
 * Leases due notices (pending and due, or sending with a lapsed lease: its sender died) to this sender; `ids`
 * narrows it to notices just made. Each claim counts as an attempt.
 */
export async function claimDue(
  db: Executor,
  at: Date,
  lease: { token: string; until: Date },
  limit: number,
  ids?: string[],
): Promise<ClaimedNotice[]> {
  if (ids && ids.length === 0) return [];
  const only = ids
    ? sql`and n.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  const result = (await db.execute(sql`
    with due as (
      select n.id from office_notices n
      where ((n.status = 'pending' and n.next_attempt_at <= ${at}) or (n.status = 'sending' and n.lease_until < ${at})) ${only}
      order by n.next_attempt_at limit ${limit}
      for update of n skip locked)
    update office_notices o set status = 'sending', lease_token = ${lease.token}, lease_until = ${lease.until},
      attempts = o.attempts + 1
    from due where o.id = due.id
    returning o.id, o.channel, o.recipient, o.subject, o.body, o.attempts, o.created_at as "createdAt"`)) as unknown as Rows<
    Omit<ClaimedNotice, 'createdAt'> & { createdAt: Date | string }
  >;
  return result.rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

/** Records an attempt's outcome, only while this sender still holds the lease. */
export async function finishNotice(
  db: Executor,
  id: string,
  leaseToken: string,
  outcome: { status: 'sent' | 'pending' | 'dead'; at: Date; nextAttemptAt?: Date; error?: string; externalId?: string },
) {
  await db
    .update(officeNotices)
    .set({
      status: outcome.status,
      leaseToken: null,
      leaseUntil: null,
      lastError: outcome.error ?? null,
      ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
      ...(outcome.externalId !== undefined ? { externalId: outcome.externalId } : {}),
      ...(outcome.status === 'sent' ? { sentAt: outcome.at } : {}),
    })
    .where(and(eq(officeNotices.id, id), eq(officeNotices.leaseToken, leaseToken)));
}

// ---- one-time links ----

export async function insertLink(db: Executor, values: typeof noticeLinks.$inferInsert) {
  await db.insert(noticeLinks).values(values);
}

/** Uses the link once: answers its practice, or null when it is unknown, used, expired or not the caller's. */
export async function useLink(db: Executor, tokenHash: string, userId: string, practiceIds: string[], at: Date) {
  if (practiceIds.length === 0) return null;
  const [row] = await db
    .update(noticeLinks)
    .set({ usedAt: at, usedBy: userId })
    .where(
      and(
        eq(noticeLinks.tokenHash, tokenHash),
        isNull(noticeLinks.usedAt),
        sql`${noticeLinks.expiresAt} > ${at}`,
        inArray(noticeLinks.mdOfficeId, practiceIds),
      ),
    )
    .returning({ practiceId: noticeLinks.mdOfficeId });
  return row?.practiceId ?? null;
}

/** Whether the link exists for one of these practices (used or expired: 410; else 404). */
export async function linkOfPractices(db: Executor, tokenHash: string, practiceIds: string[]): Promise<boolean> {
  if (practiceIds.length === 0) return false;
  const [row] = await db
    .select({ id: noticeLinks.id })
    .from(noticeLinks)
    .where(and(eq(noticeLinks.tokenHash, tokenHash), inArray(noticeLinks.mdOfficeId, practiceIds)));
  return Boolean(row);
}
