/**
 * SQL of outbound webhooks: endpoints (tenant-filtered), the dispatch of decisions from the outbox, and the
 * delivery queue. Workers claim due deliveries with `for update skip locked` under a lease, and only the first
 * open delivery of a prescription to an endpoint is claimable, so decisions arrive in the order they were made.
 */
import { and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { appealFiles, inboundTasks, outbox, webhookDeliveries, webhookEndpoints } from '../../../db/schema.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

// ---- endpoints ----

export async function insertEndpoint(db: Executor, values: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  if (!row) throw new Error('webhook endpoint insert returned no row');
  return row;
}

export function endpointsOfTenant(db: Executor, tenantId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.tenantId, tenantId))
    .orderBy(desc(webhookEndpoints.createdAt));
}

export async function endpointOfTenant(db: Executor, tenantId: string, id: string, lock = false): Promise<EndpointRow | null> {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.tenantId, tenantId)));
  const [row] = await (lock ? query.for('update') : query);
  return row ?? null;
}

export async function updateEndpoint(db: Executor, id: string, set: Partial<typeof webhookEndpoints.$inferInsert>) {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw new Error('webhook endpoint update returned no row');
  return row;
}

/** The receiver answered 410 Gone: it wants nothing more until an admin turns it back on. */
export async function disableGone(db: Executor, id: string) {
  await db
    .update(webhookEndpoints)
    .set({ disabledAt: new Date(), disabledReason: 'gone', updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.disabledAt)));
}

/** The contract's delivery statuses in SQL: failing = open with an attempt behind it. */
export const DELIVERY_STATUS_SQL: Record<'waiting' | 'sending' | 'failing' | 'delivered' | 'dead', SQL> = {
  waiting: sql`${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.firstAttemptAt} is null`,
  sending: sql`${webhookDeliveries.status} = 'sending'`,
  failing: sql`${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.firstAttemptAt} is not null`,
  delivered: sql`${webhookDeliveries.status} = 'delivered'`,
  dead: sql`${webhookDeliveries.status} = 'dead'`,
};

/** Deliveries per endpoint by how they stand (waiting, failing, dead; delivered in the last day). */
export async function deliveryCounts(db: Executor, endpointIds: string[]) {
  if (endpointIds.length === 0) return new Map<string, Record<'waiting' | 'failing' | 'dead' | 'delivered', number>>();
  const rows = await db
    .select({
      endpointId: webhookDeliveries.endpointId,
      waiting: sql<number>`count(*) filter (where ${DELIVERY_STATUS_SQL.waiting} or ${DELIVERY_STATUS_SQL.sending})::int`,
      failing: sql<number>`count(*) filter (where ${DELIVERY_STATUS_SQL.failing})::int`,
      dead: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'dead')::int`,
      delivered: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'delivered' and ${webhookDeliveries.deliveredAt} > now() - interval '1 day')::int`,
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, endpointIds))
    .groupBy(webhookDeliveries.endpointId);
  return new Map(rows.map(({ endpointId, ...counts }) => [endpointId, counts]));
}

// ---- the deliveries an admin sees ----

export async function deliveriesOf(
  db: Executor,
  endpointId: string,
  status: keyof typeof DELIVERY_STATUS_SQL | undefined,
  page: { limit: number; offset: number },
) {
  const where = and(eq(webhookDeliveries.endpointId, endpointId), status ? DELIVERY_STATUS_SQL[status] : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventSeq))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function deliveryOfEndpoint(db: Executor, endpointId: string, id: string) {
  const [row] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
  return row ?? null;
}

/** Sends a delivery again, now, with the same id; a day of retries starts afresh. Not while one is in flight. */
export async function redeliver(db: Executor, endpointId: string, deliveryIds: string[] | 'dead') {
  return db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: new Date(), firstAttemptAt: null, leaseToken: null, leaseUntil: null })
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        deliveryIds === 'dead'
          ? eq(webhookDeliveries.status, 'dead')
          : and(inArray(webhookDeliveries.id, deliveryIds), sql`${webhookDeliveries.status} <> 'sending'`),
      ),
    )
    .returning();
}

// ---- dispatch: decisions -> deliveries ----

/** Only one dispatcher at a time, cluster-wide, so deliveries are created in decision order. */
export async function tryDispatchLock(db: Executor): Promise<boolean> {
  const result = (await db.execute(sql`select pg_try_advisory_xact_lock(20261124) as "locked"`)) as unknown as {
    rows: { locked: boolean }[];
  };
  return result.rows[0]?.locked === true;
}

export interface UndispatchedDecision {
  id: string;
  seq: number;
  eventType: string;
  timelineType: string | null;
  data: Record<string, unknown> | null;
  at: Date;
  prescriptionId: string;
  patientId: string;
  prescriberId: string;
  tenantId: string;
}

/**
 * Decisions due to go out, in commit order: not held for their undo window (issue 22), not undone, and locked
 * `skip locked`, so an undo that locked one first wins and one that comes after finds it dispatched.
 */
export async function undispatched(db: Executor, limit: number): Promise<UndispatchedDecision[]> {
  const result = (await db.execute(sql`
    select o.id, o.seq::float8 as seq, o.event_type as "eventType", e.type as "timelineType", e.data,
           o.created_at as at, o.prescription_id as "prescriptionId", rx.patient_id as "patientId",
           rx.prescriber_id as "prescriberId", mo.tenant_id as "tenantId"
    from outbox o
    left join prescription_events e on e.id = o.event_id
    join prescriptions rx on rx.id = o.prescription_id
    join md_offices mo on mo.id = rx.md_office_id
    where o.event_type is not null and o.dispatched_at is null and o.cancelled_at is null
      and o.not_before <= now()
      -- a decision still held for its undo window holds back its prescription's later ones (their order is kept)
      and not exists (
        select 1 from outbox h
        where h.prescription_id = o.prescription_id and h.seq < o.seq
          and h.event_type is not null and h.dispatched_at is null and h.cancelled_at is null)
    order by o.seq
    limit ${limit}
    for update of o skip locked`)) as unknown as { rows: (Omit<UndispatchedDecision, 'at'> & { at: Date | string })[] };
  return result.rows.map((r) => ({ ...r, seq: Number(r.seq), at: new Date(r.at) }));
}

/** Enabled endpoints of these tenants (each asks for its own events). */
export function enabledEndpoints(db: Executor, tenantIds: string[]) {
  if (tenantIds.length === 0) return Promise.resolve([]);
  return db
    .select({ id: webhookEndpoints.id, tenantId: webhookEndpoints.tenantId, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.tenantId, tenantIds), isNull(webhookEndpoints.disabledAt)));
}

/** The pharmacy's own open-or-answered Task each decision answers: the newest of its prescription and category. */
export async function answeredTaskIds(db: Executor, keys: { prescriptionId: string; category: string }[]) {
  if (keys.length === 0) return new Map<string, string>();
  const rows = await db
    .selectDistinctOn([inboundTasks.prescriptionId, inboundTasks.category], {
      id: inboundTasks.id,
      prescriptionId: inboundTasks.prescriptionId,
      category: inboundTasks.category,
    })
    .from(inboundTasks)
    .where(
      inArray(
        inboundTasks.prescriptionId,
        keys.map((k) => k.prescriptionId),
      ),
    )
    .orderBy(inboundTasks.prescriptionId, inboundTasks.category, desc(inboundTasks.createdAt));
  return new Map(rows.map((r) => [`${r.prescriptionId}|${r.category}`, r.id]));
}

export async function insertDeliveries(db: Executor, rows: (typeof webhookDeliveries.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(webhookDeliveries).values(rows).onConflictDoNothing();
}

export async function markDispatched(db: Executor, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({
      dispatchedAt: new Date(),
      status: sql`case when ${outbox.status} = 'pending' then 'dispatched' else ${outbox.status} end`,
    })
    .where(inArray(outbox.id, ids));
}

// ---- delivery: claim, then record the outcome ----

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  body: string;
  attempts: number;
  firstAttemptAt: Date;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/**
 * Leases up to `limit` due deliveries to this worker: pending ones whose time has come, and sending ones whose
 * worker vanished (lease over). A delivery waits while an earlier one of its prescription to the same endpoint is
 * still open. `skip locked` lets instances claim side by side without waiting on each other.
 */
export async function claimDue(db: Executor, leaseToken: string, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
  const result = (await db.execute(sql`
    with due as (
      select d.id from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id and e.disabled_at is null
      where ((d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.lease_until < now()))
        and not exists (
          select 1 from webhook_deliveries p
          where p.endpoint_id = d.endpoint_id and p.prescription_id = d.prescription_id
            and p.event_seq < d.event_seq and p.status in ('pending', 'sending'))
      order by d.next_attempt_at, d.event_seq
      limit ${limit}
      for update of d skip locked)
    update webhook_deliveries w
    set status = 'sending', lease_token = ${leaseToken}, lease_until = now() + ${`${leaseMs} milliseconds`}::interval,
        attempts = w.attempts + 1, last_attempt_at = now(), first_attempt_at = coalesce(w.first_attempt_at, now())
    from due, webhook_endpoints e
    where w.id = due.id and e.id = w.endpoint_id
    returning w.id, w.endpoint_id as "endpointId", w.body, w.attempts, w.first_attempt_at as "firstAttemptAt",
      e.url, e.secret, e.previous_secret as "previousSecret", e.previous_secret_until as "previousSecretUntil"`)) as unknown as {
    rows: (Omit<ClaimedDelivery, 'firstAttemptAt' | 'previousSecretUntil'> & {
      firstAttemptAt: Date | string;
      previousSecretUntil: Date | string | null;
    })[];
  };
  return result.rows.map((r) => ({
    ...r,
    firstAttemptAt: new Date(r.firstAttemptAt),
    previousSecretUntil: r.previousSecretUntil === null ? null : new Date(r.previousSecretUntil),
  }));
}

/** Records an attempt's outcome, only while the lease is still ours (a late worker changes nothing). */
export async function finishAttempt(
  db: Executor,
  id: string,
  leaseToken: string,
  outcome:
    | { status: 'delivered'; httpStatus: number }
    | { status: 'pending' | 'dead'; httpStatus: number | null; error: string; nextAttemptAt: Date },
) {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: outcome.status,
      lastStatus: outcome.httpStatus,
      lastError: outcome.status === 'delivered' ? null : outcome.error,
      deliveredAt: outcome.status === 'delivered' ? new Date() : null,
      nextAttemptAt: outcome.status === 'delivered' ? undefined : outcome.nextAttemptAt,
      leaseToken: null,
      leaseUntil: null,
    })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.leaseToken, leaseToken)))
    .returning({ id: webhookDeliveries.id });
  return rows.length === 1;
}

/** The attachments of a submitted appeal, for the links in its message (no names: the slot says what each is). */
export function appealAttachments(db: Executor, appealId: string) {
  return db
    .select({
      id: appealFiles.id,
      slot: appealFiles.slot,
      contentType: appealFiles.contentType,
      sizeBytes: appealFiles.sizeBytes,
      createdAt: appealFiles.createdAt,
    })
    .from(appealFiles)
    .where(eq(appealFiles.appealId, appealId))
    .orderBy(appealFiles.slot);
}
