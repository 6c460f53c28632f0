/**
 * The privacy officer's reports (issue 49, decision 0061): a patient's accesses, a user's activity, and their exports.
 * Only a privacy officer of the tenant reads them (anyone else: 404, as for anything outside their reach); every
 * report read and export is itself audited, so a reviewer's reading is in the trail a second officer reviews.
 */
import {
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_PAGE_SIZE,
  type AuditEntry,
  type AuditExportFormat,
  type AuditPatientSearchResponse,
  type AuditUsersResponse,
  type PatientAccessQuery,
  type PatientAccessReport,
  parsePatientSearchText,
  type UserActivityQuery,
  type UserActivityReport,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { entryOf as auditEntryOf, writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { entryOf, toCsv, toFhirBundle } from './entries.ts';
import * as repo from './repository.ts';

export interface AuditTrailDeps {
  db: Database;
  now: () => Date;
  timeZone: string;
}

export interface AuditExport {
  contentType: string;
  fileName: string;
  body: string;
}

/** The caller as a reviewer; anyone else finds nothing here (404). */
export async function requireReviewer(db: Database, userId: string) {
  const reviewer = await repo.reviewerOf(db, userId);
  if (!reviewer) throw notFound('Page');
  return reviewer;
}

const tooMany = (total: number) => {
  const message = `This report has ${total.toLocaleString('en-US')} rows; narrow the dates to export at most ${AUDIT_EXPORT_MAX_ROWS.toLocaleString('en-US')}.`;
  return new AppError('VALIDATION_FAILED', message, [{ path: 'from', message }]);
};

export function createAuditTrailService({ db, now, timeZone }: AuditTrailDeps) {
  const rangeOf = (q: { from: string; to: string }): repo.Range => ({ from: q.from, to: q.to, timeZone });

  const patientOrNotFound = async (tenantId: string, patientId: string) => {
    const patient = await repo.findPatient(db, tenantId, patientId);
    if (!patient) throw notFound('Patient');
    return patient;
  };
  const userOrNotFound = async (tenantId: string, userId: string) => {
    const user = await repo.findUser(db, tenantId, userId);
    if (!user) throw notFound('User');
    return user;
  };
  /** Nobody reviews their own access alone: another privacy officer reads it (decision 0061). */
  const notOwn = (ctx: SignedInContext, userId: string) => {
    if (userId === ctx.userId) throw new AppError('FORBIDDEN', 'Another privacy officer reviews your own activity.');
  };

  /**
   * A report's export: refused above the cap before any row is read, audited with what it held, named by the report
   * and the dates (never a name: files land in download folders and mail).
   */
  const exported = async (
    ctx: SignedInContext,
    query: { from: string; to: string; format: AuditExportFormat },
    what: { report: 'patient-access' | 'user-activity'; entity: 'patient' | 'user'; id: string },
    read: {
      count: () => Promise<number>;
      rows: () => Promise<AuditEntry[]>;
      patientIdsOf: (entry: AuditEntry) => readonly string[];
    },
  ): Promise<AuditExport> => {
    const total = await read.count();
    if (total > AUDIT_EXPORT_MAX_ROWS) throw tooMany(total);
    const entries = await read.rows();
    await writeAudit(
      db,
      auditEntryOf(ctx, 'audit.export', what.entity, what.id, {
        report: what.report,
        format: query.format,
        from: query.from,
        to: query.to,
        rows: entries.length,
      }),
    );
    const name = `${what.report}-${query.from}-${query.to}`;
    return query.format === 'csv'
      ? {
          contentType: 'text/csv; charset=utf-8',
          fileName: `${name}.csv`,
          // The user activity report names each row's patients; the patient's report is about one.
          body: toCsv(entries, what.report === 'user-activity'),
        }
      : {
          contentType: 'application/fhir+json; charset=utf-8',
          fileName: `${name}.json`,
          body: JSON.stringify(toFhirBundle(entries, read.patientIdsOf, now())),
        };
  };

  return {
    async searchPatients(ctx: SignedInContext, search: string): Promise<AuditPatientSearchResponse> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const terms = parsePatientSearchText(search, now().getUTCFullYear());
      const records = await repo.searchPatients(db, reviewer.tenantId, { names: terms.words, dob: terms.dobIso });
      // The search text is not kept: only that a search was made and how many it found.
      await writeAudit(db, auditEntryOf(ctx, 'audit.patient-search', 'patient', null, { found: records.length }));
      return { records };
    },

    async users(ctx: SignedInContext, search: string): Promise<AuditUsersResponse> {
      const reviewer = await requireReviewer(db, ctx.userId);
      return { records: await repo.listUsers(db, reviewer.tenantId, search) };
    },

    async patientAccess(ctx: SignedInContext, query: PatientAccessQuery): Promise<PatientAccessReport> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const patient = await patientOrNotFound(reviewer.tenantId, query.patientId);
      const { records, total } = await repo.patientAccessPage(db, patient.id, rangeOf(query), query.page);
      await writeAudit(
        db,
        auditEntryOf(ctx, 'audit.patient-access.read', 'patient', patient.id, {
          from: query.from,
          to: query.to,
          page: query.page,
        }),
      );
      return {
        patient,
        records: records.map((r) => entryOf(r, false)),
        total,
        page: query.page,
        pageSize: AUDIT_PAGE_SIZE,
      };
    },

    async userActivity(ctx: SignedInContext, query: UserActivityQuery): Promise<UserActivityReport> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const user = await userOrNotFound(reviewer.tenantId, query.userId);
      notOwn(ctx, user.id);
      const { records, total } = await repo.userActivityPage(db, reviewer.tenantId, user.id, rangeOf(query), query.page);
      await writeAudit(
        db,
        auditEntryOf(ctx, 'audit.user-activity.read', 'user', user.id, { from: query.from, to: query.to, page: query.page }),
      );
      return { user, records: records.map((r) => entryOf(r, true)), total, page: query.page, pageSize: AUDIT_PAGE_SIZE };
    },

    async exportPatientAccess(
      ctx: SignedInContext,
      query: Omit<PatientAccessQuery, 'page'> & { format: AuditExportFormat },
    ): Promise<AuditExport> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const patient = await patientOrNotFound(reviewer.tenantId, query.patientId);
      const range = rangeOf(query);
      return exported(
        ctx,
        query,
        { report: 'patient-access', entity: 'patient', id: patient.id },
        {
          count: () => repo.patientAccessCount(db, patient.id, range),
          rows: async () =>
            (await repo.patientAccessAll(db, patient.id, range, AUDIT_EXPORT_MAX_ROWS)).map((r) => entryOf(r, false)),
          patientIdsOf: () => [patient.id],
        },
      );
    },

    async exportUserActivity(
      ctx: SignedInContext,
      query: Omit<UserActivityQuery, 'page'> & { format: AuditExportFormat },
    ): Promise<AuditExport> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const user = await userOrNotFound(reviewer.tenantId, query.userId);
      notOwn(ctx, user.id);
      const range = rangeOf(query);
      return exported(
        ctx,
        query,
        { report: 'user-activity', entity: 'user', id: user.id },
        {
          count: () => repo.userActivityCount(db, user.id, range),
          rows: async () =>
            (await repo.userActivityAll(db, reviewer.tenantId, user.id, range, AUDIT_EXPORT_MAX_ROWS)).map((r) =>
              entryOf(r, true),
            ),
          patientIdsOf: (e) => (e.patients ?? []).map((p) => p.id),
        },
      );
    },
  };
}

export type AuditTrailService = ReturnType<typeof createAuditTrailService>;
