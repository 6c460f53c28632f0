/** SQL of the practices' e-mail digests: who is due, what is new since the last one, and its record. */
import { DIGEST_EMAIL_MODES, EVENT_TYPES } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { needsActionSql, refillDueSql } from '../../lib/prescription-sql.ts';

type Rows<T> = { rows: T[] };
const modes = sql.join(
  DIGEST_EMAIL_MODES.map((m) => sql`${m}`),
  sql`, `,
);
const requested = sql`${EVENT_TYPES.pharmacyRequested}`;

/** Practices that chose e-mail, have an address, got no digest within the interval and have new requests. */
export async function duePractices(db: Executor, now: Date, intervalMinutes: number) {
  const result = (await db.execute(sql`
    select o.id from md_offices o left join office_digests d on d.md_office_id = o.id
    where o.deleted_at is null and o.communication_mode in (${modes}) and coalesce(o.email, '') <> ''
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
    select d.last_sent_at as "lastSentAt", d.last_event_id::float8 as "lastEventId", o.name, o.email
    from office_digests d join md_offices o on o.id = d.md_office_id
    where d.md_office_id = ${officeId} for update of d skip locked`)) as unknown as Rows<{
    lastSentAt: Date | string;
    lastEventId: number;
    name: string;
    email: string;
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
