/**
 * The one write flow of every FHIR resource the pharmacy sends (create, conditional update by business
 * identifier, update by id), in one transaction: find the record by id or identifier (tenant-filtered), check
 * `If-Match`, then create or update it and audit the interaction with the client. A resend of the same
 * identifier never makes a second record; two racing creates of one identifier end with one record.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Executor } from '../../db/client.ts';
import type { SystemClaims } from '../../lib/system-tokens.ts';
import type { BusinessIdentifier } from './mapping/common.ts';
import { FhirError } from './outcome.ts';
import { claimIdentifier, entityOfIdentifier, type RecordType } from './records-repository.ts';
import { auditAndKeepVersion } from './versions-repository.ts';

export type WriteMode =
  /** POST: a known identifier answers the existing record unchanged (a resend acts once). */
  | { kind: 'create' }
  /** PUT ?identifier=system|value: update the record of the identifier (the body's own), or create it. */
  | { kind: 'upsert'; identifier: BusinessIdentifier }
  /** PUT /Type/id: update that record. */
  | { kind: 'update'; id: string };

export interface WriteRequest {
  system: SystemClaims;
  requestId: string;
  ip: string | null;
  mode: WriteMode;
  /** The `If-Match` version (`W/"3"`), when sent. */
  ifMatch: string | undefined;
}

export interface RecordOps<Current extends { versionId: string }, Fields> {
  type: RecordType;
  entityType: string;
  /** The record locked for update, within the tenant, or null. */
  lock(tx: Executor, tenantId: string, id: string): Promise<Current | null>;
  /**
   * Checks references (422) and writes a new record with this id; may answer what only this answer carries
   * (an appeal's access key, shown once).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: most types answer nothing more; an appeal Task answers its key once.
  create(tx: Executor, id: string, fields: Fields): Promise<void | AnswerOnce>;
  /** Checks references (422) and writes the change; false when nothing changed. */
  update(tx: Executor, id: string, fields: Fields, current: Current): Promise<boolean>;
}

/** Elements added to the answer of the write that created the record, and never again (secrets shown once). */
export interface AnswerOnce {
  output?: unknown[];
}

export type WriteOutcome = { id: string; created: boolean; changed: boolean; once?: AnswerOnce };

/** `W/"3"`, `"3"` or `3` -> `3`. */
export function versionOf(ifMatch: string): string {
  return ifMatch
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}

/**
 * Writes one record and reads it back, both in one transaction: its own, or a savepoint within the caller's (a
 * transaction Bundle, where every entry commits together or not at all).
 */
export async function writeRecord<
  Current extends { versionId: string },
  Fields,
  Body extends { meta: { versionId: string } } | null,
>(
  db: Executor,
  request: WriteRequest,
  ops: RecordOps<Current, Fields>,
  identifier: BusinessIdentifier,
  fields: Fields,
  readBack: (tx: Executor, id: string) => Promise<Body>,
): Promise<WriteOutcome & { body: Body }> {
  const { tenantId, clientId } = request.system;

  return (db as Database).transaction(async (tx) => {
    const { interaction, ...outcome } = await write(tx);
    const body = await readBack(tx, outcome.id);
    // The audit row of the interaction and, when it made one, the new version as answered (vread keeps it): one
    // statement.
    await auditAndKeepVersion(
      tx,
      {
        actorUserId: null,
        action: `fhir.${ops.type}.${interaction}`,
        entityType: ops.entityType,
        entityId: outcome.id,
        requestId: request.requestId,
        ip: request.ip,
        details: { clientId },
      },
      outcome.changed && body
        ? { tenantId, type: ops.type, id: outcome.id, versionId: body.meta.versionId, resource: body }
        : null,
    );
    return { ...outcome, body };
  });

  async function write(tx: Executor): Promise<WriteOutcome & { interaction: string }> {
    const known = await entityOfIdentifier(tx, tenantId, ops.type, identifier);
    const { mode } = request;
    if (mode.kind === 'update' && known && known !== mode.id) {
      throw new FhirError(422, 'processing', `${ops.type}.identifier already names another ${ops.type} (${known}).`, [
        `${ops.type}.identifier`,
      ]);
    }
    const targetId = mode.kind === 'update' ? mode.id : known;
    const current = targetId ? await ops.lock(tx, tenantId, targetId) : null;
    if (mode.kind === 'update' && !current) throw new FhirError(404, 'not-found', `${ops.type}/${mode.id} is not known.`);
    if (request.ifMatch !== undefined && (!current || current.versionId !== versionOf(request.ifMatch))) {
      throw new FhirError(
        412,
        'conflict',
        current
          ? `${ops.type}/${targetId} is at version ${current.versionId}, not ${versionOf(request.ifMatch)}: read it again and resend.`
          : `No ${ops.type} with this identifier to match If-Match.`,
      );
    }
    if (current && targetId) {
      if (mode.kind === 'create') return { id: targetId, created: false, changed: false, interaction: 'create-existing' };
      if (!known) await claimIdentifier(tx, { tenantId, type: ops.type, identifier, entityId: targetId, clientId });
      const changed = await ops.update(tx, targetId, fields, current);
      return { id: targetId, created: false, changed, interaction: changed ? 'update' : 'update-unchanged' };
    }
    const id = randomUUID();
    if (!(await claimIdentifier(tx, { tenantId, type: ops.type, identifier, entityId: id, clientId }))) {
      // Another request created this identifier's record a moment ago: the client resends and finds it.
      throw new FhirError(409, 'conflict', `Another request is creating this ${ops.type}; send it again.`);
    }
    const once = (await ops.create(tx, id, fields)) ?? undefined;
    return { id, created: true, changed: true, interaction: 'create', ...(once ? { once } : {}) };
  }
}
