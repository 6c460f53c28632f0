/** audit_log rows: who did what to which record, with the request id; never secrets or patient names. */
import type { Executor } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export interface AuditEntry {
  actorUserId: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  requestId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

export async function writeAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    requestId: entry.requestId ?? null,
    ip: entry.ip ?? null,
    details: entry.details ?? {},
  });
}
