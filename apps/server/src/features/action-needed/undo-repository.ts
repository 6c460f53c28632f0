/**
 * SQL of undo (issue 22; decision 0030): what a decision changed is kept per prescription with the version it
 * left; an undo reads it back under lock with the decision's outbox row, so the dispatcher (which claims rows
 * `for update skip locked`) and an undo can never both have one decision.
 */
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { decisionUndos, outbox, prescriptionEvents } from '../../db/schema.ts';
import { windowEndSql } from '../../lib/decisions.ts';

export async function insertUndo(
  db: Executor,
  row: Omit<typeof decisionUndos.$inferInsert, 'undoUntil'> & { undoUntil: SQL },
): Promise<Date> {
  const [inserted] = await db.insert(decisionUndos).values(row).returning({ undoUntil: decisionUndos.undoUntil });
  if (!inserted) throw new Error('undo insert returned no row');
  return inserted.undoUntil;
}

/** The end of a window that starts now, by the database's clock (a bulk decision's items share one). */
export async function windowEnd(db: Executor, seconds: number): Promise<Date> {
  const result = (await db.execute(sql`select ${windowEndSql(seconds)} as "until"`)) as unknown as {
    rows: { until: Date | string }[];
  };
  return new Date(result.rows[0]?.until ?? Date.now() + seconds * 1000);
}

/**
 * A decision's undo rows of this user made in this session, locked, with whether their window is still open by the
 * database's clock. Another session's (after a logout, say) are as unknown as none (issue 42).
 */
export async function lockUndos(db: Executor, userId: string, familyId: string, requestId: string) {
  return db
    .select({
      prescriptionId: decisionUndos.prescriptionId,
      action: decisionUndos.action,
      eventId: decisionUndos.eventId,
      previous: decisionUndos.previous,
      versionAfter: decisionUndos.versionAfter,
      undoneAt: decisionUndos.undoneAt,
      open: sql<boolean>`${decisionUndos.undoUntil} > now()`,
      eventType: prescriptionEvents.type,
      eventData: prescriptionEvents.data,
    })
    .from(decisionUndos)
    .innerJoin(prescriptionEvents, eq(prescriptionEvents.id, decisionUndos.eventId))
    .where(
      and(eq(decisionUndos.userId, userId), eq(decisionUndos.sessionFamilyId, familyId), eq(decisionUndos.requestId, requestId)),
    )
    .orderBy(decisionUndos.prescriptionId)
    .for('update', { of: decisionUndos });
}

/** The decisions' outbox rows, locked (an undo waits for a dispatcher holding them, then sees them dispatched). */
export async function lockOutboxOfEvents(db: Executor, eventIds: number[]) {
  if (eventIds.length === 0) return [];
  return db
    .select({ eventId: outbox.eventId, dispatchedAt: outbox.dispatchedAt })
    .from(outbox)
    .where(inArray(outbox.eventId, eventIds))
    .for('update');
}

/** Takes the decision back: its message never leaves, its event counts for nothing, its undo row is spent. */
export async function markUndone(db: Executor, userId: string, requestId: string, prescriptionId: string, eventId: number) {
  const now = sql`now()`;
  await db
    .update(outbox)
    .set({ cancelledAt: now, status: 'cancelled' })
    .where(and(eq(outbox.eventId, eventId), isNull(outbox.dispatchedAt)));
  await db.update(prescriptionEvents).set({ undoneAt: now }).where(eq(prescriptionEvents.id, eventId));
  await db
    .update(decisionUndos)
    .set({ undoneAt: now })
    .where(
      and(
        eq(decisionUndos.userId, userId),
        eq(decisionUndos.requestId, requestId),
        eq(decisionUndos.prescriptionId, prescriptionId),
      ),
    );
}

/** Undo rows are of use for seconds; a day later they go (housekeeping). */
export async function purgeUndos(db: Executor, now: Date): Promise<Record<string, number>> {
  const rows = await db
    .delete(decisionUndos)
    .where(sql`${decisionUndos.createdAt} < ${new Date(now.getTime() - 86_400_000)}`)
    .returning({ requestId: decisionUndos.requestId });
  return { decisionUndos: rows.length };
}
