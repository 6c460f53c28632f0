/** audit_log rows: who did what to which record, with the request id; never secrets or patient names. */
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, jsonParam } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { AppError } from './errors.ts';

export interface AuditEntry {
  actorUserId: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  requestId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** An entry as its audit_log row holds it: every field present, absent ones null, details an object. */
export const auditRowOf = (entry: AuditEntry) => ({
  actorUserId: entry.actorUserId,
  action: entry.action,
  entityType: entry.entityType,
  entityId: entry.entityId ?? null,
  requestId: entry.requestId ?? null,
  ip: entry.ip ?? null,
  details: entry.details ?? {},
});

export async function writeAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(auditRowOf(entry));
}

/**
 * The audit row of a read as a data-modifying CTE (`with ${auditCteSql(...)}, ...`): a list and the record of who
 * read it are one statement, so a list request costs no extra round trip. Several rows (a batch of writes) are one
 * insert.
 */
export const auditCteSql = (entries: AuditEntry | readonly AuditEntry[]): SQL => {
  const rows = [entries].flat().map(
    (
      entry,
    ) => sql`(${entry.actorUserId}, ${entry.action}, ${entry.entityType}, ${entry.entityId ?? null}, ${entry.requestId ?? null},
              ${entry.ip ?? null}, ${jsonParam(entry.details)}::jsonb)`,
  );
  return sql`audit as (
      insert into audit_log (actor_user_id, action, entity_type, entity_id, request_id, ip, details)
      values ${sql.join(rows, sql`, `)}
      returning id
    )`;
};

/** The distinct patients of a list statement's `shown` select (one column, `patient_id`) as a JSON array. */
export const shownPatientsSql = (shown: SQL): SQL =>
  sql`coalesce((select jsonb_agg(distinct s.patient_id) from (${shown}) s), '[]'::jsonb)`;

/**
 * The audit row of a list read as a data-modifying CTE that names the patients the answer shows (issue 49, decision
 * 0061): `shown` selects their ids (one column, `patient_id`) from the statement's earlier CTEs, so this CTE goes
 * after those. The ids go into the row's details (`patientIds`, sealed with the row), and the subjects trigger links
 * the row to each patient's access report. Its one row holds `shown`, the ids as JSON, for the statement to return.
 */
export const auditListCteSql = (entry: AuditEntry, shown: SQL): SQL => sql`audit as (
      insert into audit_log (actor_user_id, action, entity_type, entity_id, request_id, ip, details)
      select ${entry.actorUserId}::uuid, ${entry.action}::text, ${entry.entityType}::text, ${entry.entityId ?? null}::text,
        ${entry.requestId ?? null}::text, ${entry.ip ?? null}::text,
        ${jsonParam(entry.details)}::jsonb || jsonb_build_object('patientIds', ${shownPatientsSql(shown)})
      returning details->'patientIds' as shown
    )`;

/**
 * Runs a patient-data write; when it is refused inside the caller's reach (403: not theirs to change, 409: the
 * state moved on) the transaction rolled back, so the attempt is audited on its own: who tried what on which
 * record, and why it was refused. Outside the caller's reach (404) nothing is written: an id probe names
 * nothing the caller may know.
 */
export async function auditingRefusals<T>(db: Executor, entry: AuditEntry, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof AppError && (error.code === 'FORBIDDEN' || error.code === 'CONFLICT')) {
      await writeAudit(db, { ...entry, action: `${entry.action}.refused`, details: { ...entry.details, refused: error.code } });
    }
    throw error;
  }
}

/** The audit entry of a signed-in user's request: who, from where and which request, with what they did. */
export function entryOf(
  ctx: { userId: string; requestId: string; ip: string | null },
  action: string,
  entityType: string,
  entityId: string | null,
  details?: Record<string, unknown>,
): AuditEntry {
  return {
    actorUserId: ctx.userId,
    action,
    entityType,
    entityId,
    requestId: ctx.requestId,
    ip: ctx.ip,
    ...(details ? { details } : {}),
  };
}
