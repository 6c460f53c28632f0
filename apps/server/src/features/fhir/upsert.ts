/**
 * The one write flow of every FHIR resource the pharmacy sends (create, conditional update by business
 * identifier, update by id), in one transaction. A create or conditional update claims the identifier for a new
 * record first (most writes make one: a new Task costs two statements, issue 46); only when the identifier is taken
 * is the record found (tenant-filtered, locked), `If-Match` checked, and the record updated. An update by id finds
 * it by id. Every interaction is audited with the client. A resend of the same identifier never makes a second
 * record; two racing creates of one identifier end with one record.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Executor } from '../../db/client.ts';
import type { AuditEntry } from '../../lib/audit.ts';
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

/** A business identifier to claim for a new record (`entityId`): the claim and the record commit together. */
export interface IdentifierClaim {
  tenantId: string;
  type: RecordType;
  identifier: BusinessIdentifier;
  entityId: string;
  clientId: string;
}

/** How a write finds the record it changes: by our id, or by the pharmacy's business identifier. */
export type RecordKey = { id: string } | { identifier: BusinessIdentifier };

export interface RecordOps<Current extends { id: string; versionId: string }, Fields> {
  type: RecordType;
  entityType: string;
  /** The record locked for update, within the tenant, or null. */
  lock(tx: Executor, tenantId: string, key: RecordKey): Promise<Current | null>;
  /**
   * Claims the identifier for a new record with the claim's id and, when it was free, checks references (422) and
   * writes the record; null, with nothing written, when the identifier is already claimed (the write then finds
   * its record). Claiming first spares the look-up on the way most writes go: a new record.
   */
  create(tx: Executor, claim: IdentifierClaim, fields: Fields, audit: AuditEntry): Promise<Created | null>;
  /**
   * The creates of several new records (a transaction Bundle's run of them) in as few statements as the type can,
   * each answered as `create` answers it, in order. A refusal is thrown as a RecordRefused naming the record.
   */
  createMany?(tx: Executor, news: NewRecord<Fields>[]): Promise<(Created | null)[]>;
  /** Checks references (422) and writes the change; false when nothing changed. */
  update(tx: Executor, id: string, fields: Fields, current: Current): Promise<boolean>;
}

/** One new record of a batch: its claim, what it says, and the audit row of its create. */
export interface NewRecord<Fields> {
  claim: IdentifierClaim;
  fields: Fields;
  audit: AuditEntry;
}

/** The refusal of one record of a batch (createMany): which one (its place in the batch), and why. */
export class RecordRefused extends Error {
  constructor(
    readonly index: number,
    readonly refusal: unknown,
  ) {
    super(`record ${index} of the batch was refused`);
  }
}

/** What a create answers besides having written. */
export interface Created {
  /** Elements added to the answer of the write that created the record, and never again (secrets shown once). */
  once?: AnswerOnce;
  /**
   * The record as it reads, when the create's own statement wrote it with `audit` and kept it as the record's
   * first version (auditAndKeepVersionCtes): no read-back and no audit statement then.
   */
  recorded?: { meta: { versionId: string } };
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

/** The audit row of an interaction of the client with a record. */
const auditEntry = (
  request: Pick<WriteRequest, 'system' | 'requestId' | 'ip'>,
  ops: { type: RecordType; entityType: string },
  interaction: string,
  id: string,
): AuditEntry => ({
  actorUserId: null,
  action: `fhir.${ops.type}.${interaction}`,
  entityType: ops.entityType,
  entityId: id,
  requestId: request.requestId,
  ip: request.ip,
  details: { clientId: request.system.clientId },
});

/** The version a write made, to keep as it was answered. */
const keptOf = (tenantId: string, type: RecordType, id: string, body: { meta: { versionId: string } }) => ({
  tenantId,
  type,
  id,
  versionId: body.meta.versionId,
  resource: body,
});

/**
 * Writes one record and reads it back, both in one transaction: its own, or a savepoint within the caller's (a
 * transaction Bundle, where every entry commits together or not at all). `readBack` is given the locked row when
 * nothing changed: that is the record as it reads.
 */
export async function writeRecord<
  Current extends { id: string; versionId: string },
  Fields,
  Body extends { meta: { versionId: string } } | null,
>(
  db: Executor,
  request: WriteRequest,
  ops: RecordOps<Current, Fields>,
  identifier: BusinessIdentifier,
  fields: Fields,
  readBack: (tx: Executor, id: string, unchanged: Current | null) => Promise<Body>,
): Promise<WriteOutcome & { body: Body }> {
  const { tenantId, clientId } = request.system;
  const audit = (interaction: string, id: string) => auditEntry(request, ops, interaction, id);

  return (db as Database).transaction(async (tx) => {
    const { interaction, recorded, current, ...outcome } = await write(tx);
    if (recorded) return { ...outcome, body: recorded as Body };
    const body = await readBack(tx, outcome.id, outcome.changed ? null : current);
    // The audit row of the interaction and, when it made one, the new version as answered (vread keeps it): one
    // statement.
    await auditAndKeepVersion(
      tx,
      audit(interaction, outcome.id),
      outcome.changed && body ? keptOf(tenantId, ops.type, outcome.id, body) : null,
    );
    return { ...outcome, body };
  });

  type Written = WriteOutcome & { interaction: string; recorded?: unknown; current: Current | null };

  async function write(tx: Executor): Promise<Written> {
    const { mode } = request;
    if (mode.kind !== 'update' && request.ifMatch === undefined) {
      // Most writes make a new record: claim its identifier first, and look up only when it was taken.
      const id = randomUUID();
      const claim = { tenantId, type: ops.type, identifier, entityId: id, clientId };
      const made = await ops.create(tx, claim, fields, audit('create', id));
      if (made) {
        return {
          id,
          created: true,
          changed: true,
          interaction: 'create',
          current: null,
          ...(made.once ? { once: made.once } : {}),
          ...(made.recorded ? { recorded: made.recorded } : {}),
        };
      }
    }
    const known = mode.kind === 'update' ? await entityOfIdentifier(tx, tenantId, ops.type, identifier) : null;
    if (mode.kind === 'update' && known && known !== mode.id) {
      throw new FhirError(422, 'processing', `${ops.type}.identifier already names another ${ops.type} (${known}).`, [
        `${ops.type}.identifier`,
      ]);
    }
    const current = await ops.lock(tx, tenantId, mode.kind === 'update' ? { id: mode.id } : { identifier });
    if (mode.kind === 'update' && !current) throw new FhirError(404, 'not-found', `${ops.type}/${mode.id} is not known.`);
    if (request.ifMatch !== undefined && (!current || current.versionId !== versionOf(request.ifMatch))) {
      throw new FhirError(
        412,
        'conflict',
        current
          ? `${ops.type}/${current.id} is at version ${current.versionId}, not ${versionOf(request.ifMatch)}: read it again and resend.`
          : `No ${ops.type} with this identifier to match If-Match.`,
      );
    }
    if (!current) {
      // Claimed by a request whose record this transaction cannot see yet: the client resends and finds it.
      throw new FhirError(409, 'conflict', `Another request is creating this ${ops.type}; send it again.`);
    }
    const targetId = current.id;
    if (mode.kind === 'create') {
      return { id: targetId, created: false, changed: false, interaction: 'create-existing', current };
    }
    if (mode.kind === 'update' && !known) {
      await claimIdentifier(tx, { tenantId, type: ops.type, identifier, entityId: targetId, clientId });
    }
    const changed = await ops.update(tx, targetId, fields, current);
    return { id: targetId, created: false, changed, interaction: changed ? 'update' : 'update-unchanged', current };
  }
}

/**
 * Creates several new records of one type in the caller's transaction (a transaction Bundle's run of creates), in
 * the statements of `ops.createMany`; each answered as writeRecord answers a create, in order, and null where the
 * identifier already names a record (the caller writes that one through writeRecord). What the batch's statement
 * did not record (a request a rule answered on arrival, an appeal) is read back and audited one by one.
 */
export async function createRecords<
  Current extends { id: string; versionId: string },
  Fields,
  Body extends { meta: { versionId: string } } | null,
>(
  tx: Executor,
  request: Pick<WriteRequest, 'system' | 'requestId' | 'ip'>,
  ops: RecordOps<Current, Fields>,
  items: { identifier: BusinessIdentifier; fields: Fields }[],
  readBack: (id: string) => Promise<Body>,
): Promise<((WriteOutcome & { body: Body }) | null)[]> {
  if (!ops.createMany) throw new Error(`createRecords: ${ops.type} has no createMany`);
  const { tenantId, clientId } = request.system;
  const news = items.map(({ identifier, fields }) => {
    const id = randomUUID();
    return {
      claim: { tenantId, type: ops.type, identifier, entityId: id, clientId },
      fields,
      audit: auditEntry(request, ops, 'create', id),
    };
  });
  const made = await ops.createMany(tx, news);
  const answers: ((WriteOutcome & { body: Body }) | null)[] = [];
  for (const [index, created] of made.entries()) {
    const { claim, audit } = news[index] as (typeof news)[number];
    if (!created) {
      answers.push(null);
      continue;
    }
    const outcome = { id: claim.entityId, created: true, changed: true, ...(created.once ? { once: created.once } : {}) };
    if (created.recorded) {
      answers.push({ ...outcome, body: created.recorded as Body });
      continue;
    }
    const body = await readBack(claim.entityId);
    await auditAndKeepVersion(tx, audit, body ? keptOf(tenantId, ops.type, claim.entityId, body) : null);
    answers.push({ ...outcome, body });
  }
  return answers;
}
