/**
 * Earlier versions of the pharmacy's resources (issue 46 part 1): `GET [type]/[id]/_history/[vid]`. The current
 * version is always read live from the records; this table keeps, as they were answered, the versions a pharmacy's
 * own write made and the versions a decision's webhook message carried — what a pharmacy can hold a version id of.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { type Executor, jsonParam } from '../../db/client.ts';
import { fhirVersions } from '../../db/schema.ts';
import { type AuditEntry, auditCteSql, writeAudit } from '../../lib/audit.ts';
import type { RecordType } from './records-repository.ts';

export interface KeptVersion {
  tenantId: string;
  type: RecordType;
  id: string;
  versionId: string;
  resource: unknown;
}

/** Keeps these versions (a version already kept stays as it was: a version never changes). */
export async function keepVersions(db: Executor, versions: KeptVersion[]) {
  if (versions.length === 0) return;
  await db
    .insert(fhirVersions)
    .values(
      versions.map((v) => ({
        tenantId: v.tenantId,
        resourceType: v.type,
        entityId: v.id,
        versionId: v.versionId,
        resource: v.resource,
      })),
    )
    .onConflictDoNothing();
}

/** A write's audit row and its new version, as it was answered. */
export interface RecordedWrite {
  audit: AuditEntry;
  version: KeptVersion;
}

/** Writes' audit rows and new versions as two data-modifying CTEs (`with ${...}, ...`), for the writes' own statement. */
export const auditAndKeepVersionsCtes = (writes: readonly RecordedWrite[]) => sql`${auditCteSql(writes.map((w) => w.audit))},
  kept as (insert into fhir_versions (tenant_id, resource_type, entity_id, version_id, resource)
    values ${sql.join(
      writes.map(({ version: v }) => sql`(${v.tenantId}, ${v.type}, ${v.id}, ${v.versionId}, ${jsonParam(v.resource)}::jsonb)`),
      sql`, `,
    )}
    on conflict do nothing)`;

/** A write's audit row and, when it made one, its new version: one statement (the write path counts them). */
export async function auditAndKeepVersion(db: Executor, audit: AuditEntry, version: KeptVersion | null) {
  if (!version) return writeAudit(db, audit);
  await db.execute(sql`with ${auditAndKeepVersionsCtes([{ audit, version }])} select 1`);
}

/** One kept version of a record of this tenant, or null. */
export async function keptVersion(db: Executor, tenantId: string, type: RecordType, id: string, versionId: string) {
  const [row] = await db
    .select({ resource: fhirVersions.resource })
    .from(fhirVersions)
    .where(
      and(
        eq(fhirVersions.tenantId, tenantId),
        eq(fhirVersions.resourceType, type),
        eq(fhirVersions.entityId, id),
        eq(fhirVersions.versionId, versionId),
      ),
    );
  return row?.resource ?? null;
}

/** Housekeeping: versions older than the days kept. */
export async function purgeVersions(db: Executor, now: Date, days: number): Promise<Record<string, number>> {
  const rows = await db
    .delete(fhirVersions)
    .where(lt(fhirVersions.createdAt, new Date(now.getTime() - days * 86_400_000)))
    .returning({ n: sql`1` });
  return { fhirVersions: rows.length };
}
