/** A prescription's timeline: every event, with who did it and what it says (audited as a read). */
import { describeEvent, type PrescriptionEvent } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { entryOf, writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { type ActionContext, PRESCRIPTION_NOT_FOUND } from './act.ts';
import * as repo from './repository.ts';

export function timeline(db: Database) {
  return {
    async events(ctx: ActionContext, id: string): Promise<PrescriptionEvent[]> {
      const rows = await repo.eventsOf(db, ctx.userId, id);
      if (!rows) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
      await writeAudit(db, entryOf(ctx, 'prescription.events.read', 'prescription', id));
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        at: r.at.toISOString(),
        actorName: r.actorName,
        summary: describeEvent(r.type, r.data as Record<string, unknown>),
      }));
    },
  };
}
