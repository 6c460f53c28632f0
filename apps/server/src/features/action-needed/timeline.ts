/** A prescription's timeline: every event, with who did it and what it says (audited as a read). */
import { describeEvent, type EarlierChartNotes, type PharmacyDelivery, type PrescriptionEvent } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { entryOf, writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { type ActionContext, PRESCRIPTION_NOT_FOUND } from './act.ts';
import * as repo from './repository.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Dead beats failing beats sending: the pharmacy has it only when every endpoint that asked got it. */
function deliveryOf(row: Awaited<ReturnType<typeof repo.deliveryOfEvents>>[number]): PharmacyDelivery {
  const status = row.anyDead ? 'dead' : row.anyFailing ? 'failing' : row.allDelivered ? 'delivered' : 'sending';
  return {
    status,
    sentAt: iso(row.sentAt) as string,
    deliveredAt: status === 'delivered' ? iso(row.deliveredAt) : null,
    nextAttemptAt: status === 'failing' ? iso(row.nextAttemptAt) : null,
  };
}

export function timeline(db: Database) {
  return {
    /** Chart notes sent for this patient before (issue 23): offered for reuse on a new PA. Audited as a read. */
    async earlierChartNotes(ctx: ActionContext, id: string): Promise<EarlierChartNotes> {
      const found = await repo.earlierChartNotes(db, ctx.userId, id);
      if (!found) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
      await writeAudit(
        db,
        entryOf(ctx, 'prescription.earlier-chart-notes.read', 'prescription', id, { patientId: found.patientId }),
      );
      return {
        records: found.rows.map((r) => ({
          prescriptionId: r.prescriptionId,
          drug: [r.drugName, r.strength].filter(Boolean).join(' '),
          sentAt: r.sentAt,
          chartNote: r.chartNote,
          isICD10TriedAndFailed: r.isICD10TriedAndFailed,
        })),
      };
    },

    async events(ctx: ActionContext, id: string): Promise<PrescriptionEvent[]> {
      const rows = await repo.eventsOf(db, ctx.userId, id);
      if (!rows) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
      await writeAudit(db, entryOf(ctx, 'prescription.events.read', 'prescription', id));
      const deliveries = new Map((await repo.deliveryOfEvents(db, id)).map((d) => [Number(d.eventId), deliveryOf(d)]));
      return rows.map((r) => {
        const delivery = deliveries.get(r.id);
        return {
          id: r.id,
          type: r.type,
          at: r.at.toISOString(),
          actorName: r.actorName,
          summary: describeEvent(r.type, r.data as Record<string, unknown>),
          ...(delivery && { delivery }),
          ...(r.heldUntil !== null && { heldUntil: iso(r.heldUntil) as string }),
          ...(r.undoneAt !== null && { undone: true }),
        };
      });
    },
  };
}
