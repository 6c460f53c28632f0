/**
 * What a privacy officer reviews and clears (issue 49, decision 0061): support windows (break-the-glass) and the
 * unusual-access findings, each marked reviewed once with a note; who else is a privacy officer; and the trail's
 * seals. Nobody clears an item about themselves: another officer does.
 */
import {
  AUDIT_PAGE_SIZE,
  type ChainReport,
  dayInZone,
  type FindingReview,
  type PrivacyOfficersResponse,
  type SupportWindowsResponse,
  UNUSUAL_ACCESS_RULE_KEYS,
  UNUSUAL_ACCESS_RULES,
  type UnusualAccessFinding,
  type UnusualAccessResponse,
  type UnusualAccessRule,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { entryOf as auditEntryOf, writeAudit } from '../../lib/audit.ts';
import type { AuditChain } from '../../lib/audit-chain.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { iso } from './entries.ts';
import * as findings from './findings-repository.ts';
import * as repo from './repository.ts';
import { requireReviewer } from './service.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A finding's key: rule, person, and the day and patient, or the period, it is about. */
const FINDING_KEY = new RegExp(
  `^(?:(afterHours):(${UUID}):(\\d{4}-\\d{2}-\\d{2})|(manyPatients):(${UUID}):(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}Z)|(noOpenWork):(${UUID}):(\\d{4}-\\d{2}-\\d{2}):(${UUID}))$`,
);

const reviewOf = (row: repo.ReviewRow) =>
  row.reviewed_at ? { reviewedBy: row.reviewed_by ?? '', reviewedAt: iso(row.reviewed_at), note: row.note ?? '' } : null;

const alreadyReviewed = () => new AppError('CONFLICT', 'Someone has already reviewed this. Reload to see their note.');
const ownItem = () => new AppError('FORBIDDEN', 'Another privacy officer reviews your own access.');

export function createAuditReviews({
  db,
  chain,
  now,
  timeZone,
}: {
  db: Database;
  chain: AuditChain;
  now: () => Date;
  timeZone: string;
}) {
  const rangeOf = (q: { from: string; to: string }): repo.Range => ({ from: q.from, to: q.to, timeZone });

  const findingOf = (rule: UnusualAccessRule, row: findings.FindingRow): UnusualAccessFinding => ({
    key: `${rule}:${row.actor_id}:${row.bucket}`,
    rule,
    user: { id: row.actor_id, name: row.actor_name, practice: row.actor_practice },
    from: iso(row.first_at),
    to: iso(row.last_at),
    reads: Number(row.reads),
    patient: row.patient_id ? { id: row.patient_id, name: row.patient_name ?? '' } : null,
    patients: Number(row.patients),
    review: reviewOf(row),
  });

  return {
    async supportWindows(
      ctx: SignedInContext,
      query: { from: string; to: string; status: 'open' | 'reviewed' | 'all'; page: number },
    ): Promise<SupportWindowsResponse> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const { records, total } = await repo.supportWindowsPage(db, reviewer.tenantId, rangeOf(query), query.status, query.page);
      return {
        records: records.map((r) => ({
          id: r.id,
          user: { id: r.user_id, name: r.user_name },
          practice: r.practice,
          reason: r.reason,
          startedAt: iso(r.started_at),
          endedAt: iso(r.ended_at),
          minutes: Math.max(0, Math.round((new Date(r.ended_at).getTime() - new Date(r.started_at).getTime()) / 60_000)),
          reads: Number(r.reads),
          patients: Number(r.patients),
          review: reviewOf(r),
        })),
        total,
        page: query.page,
        pageSize: AUDIT_PAGE_SIZE,
      };
    },

    async reviewSupportWindow(ctx: SignedInContext, windowId: string, note: string) {
      const reviewer = await requireReviewer(db, ctx.userId);
      const window = await repo.supportWindowOf(db, reviewer.tenantId, windowId);
      if (!window) throw notFound('Support window');
      if (window.user_id === ctx.userId) throw ownItem();
      await db.transaction(async (tx) => {
        const added = await repo.insertReview(tx, {
          tenantId: reviewer.tenantId,
          itemKey: `support:${window.id}`,
          kind: 'supportWindow',
          subjectUserId: window.user_id,
          reviewedBy: ctx.userId,
          note,
        });
        if (!added) throw alreadyReviewed();
        await writeAudit(tx, auditEntryOf(ctx, 'audit.review.support-window', 'support_access_grant', window.id));
      });
    },

    async unusualAccess(
      ctx: SignedInContext,
      query: { from: string; to: string; status: 'open' | 'reviewed' | 'all'; rule?: UnusualAccessRule | undefined },
    ): Promise<UnusualAccessResponse> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const { afterHours, manyPatients } = UNUSUAL_ACCESS_RULES;
      const rows = await findings.unusualAccessFindings(
        db,
        reviewer.tenantId,
        rangeOf(query),
        {
          hours: { start: afterHours.startHour, end: afterHours.endHour },
          many: manyPatients,
          todayIso: dayInZone(timeZone, now()),
        },
        { status: query.status, rule: query.rule ?? null },
      );
      const totals = Object.fromEntries(UNUSUAL_ACCESS_RULE_KEYS.map((rule) => [rule, 0])) as Record<UnusualAccessRule, number>;
      for (const row of rows) totals[row.rule] = Number(row.rule_total);
      return { records: rows.map((row) => findingOf(row.rule, row)), totals, perRule: findings.FINDINGS_PER_RULE };
    },

    async reviewFinding(ctx: SignedInContext, input: FindingReview) {
      const reviewer = await requireReviewer(db, ctx.userId);
      const match = FINDING_KEY.exec(input.key);
      if (!match) throw notFound('Finding');
      const rule = (match[1] ?? match[4] ?? match[7]) as UnusualAccessRule;
      const subject = (match[2] ?? match[5] ?? match[8]) as string;
      const patient = match[10];
      if (!(await repo.userInTenant(db, reviewer.tenantId, subject))) throw notFound('Finding');
      if (patient && !(await repo.findPatient(db, reviewer.tenantId, patient))) throw notFound('Finding');
      if (subject === ctx.userId) throw ownItem();
      await db.transaction(async (tx) => {
        const added = await repo.insertReview(tx, {
          tenantId: reviewer.tenantId,
          itemKey: input.key,
          kind: rule,
          subjectUserId: subject,
          reviewedBy: ctx.userId,
          note: input.note,
        });
        if (!added) throw alreadyReviewed();
        await writeAudit(tx, auditEntryOf(ctx, 'audit.review.finding', 'user', subject, { rule }));
      });
    },

    async privacyOfficers(ctx: SignedInContext): Promise<PrivacyOfficersResponse> {
      const reviewer = await requireReviewer(db, ctx.userId);
      const rows = await repo.privacyOfficers(db, reviewer.tenantId);
      return { records: rows.map((r) => ({ id: r.id, name: r.name, email: r.email, privacyOfficer: r.privacy_officer })) };
    },

    /** A privacy officer makes another of the tenant's provider admins one, or takes it back; never their own. */
    async setPrivacyOfficer(ctx: SignedInContext, userId: string, value: boolean) {
      const reviewer = await requireReviewer(db, ctx.userId);
      if (userId === ctx.userId) throw new AppError('FORBIDDEN', 'Another privacy officer changes your own permission.');
      await db.transaction(async (tx) => {
        if (!(await repo.setPrivacyOfficer(tx, reviewer.tenantId, userId, value))) {
          throw new AppError('VALIDATION_FAILED', 'Only a provider admin can be a privacy officer.', [
            { path: 'privacyOfficer', message: 'Only a provider admin can be a privacy officer.' },
          ]);
        }
        await writeAudit(tx, auditEntryOf(ctx, value ? 'privacy-officer.granted' : 'privacy-officer.revoked', 'user', userId));
      });
    },

    async verify(ctx: SignedInContext): Promise<ChainReport> {
      await requireReviewer(db, ctx.userId);
      const report = await chain.verify();
      await writeAudit(db, auditEntryOf(ctx, 'audit.verify', 'audit', null, { ok: report.ok, problem: report.problem }));
      return { ...report, checkedAt: now().toISOString() };
    },
  };
}

export type AuditReviews = ReturnType<typeof createAuditReviews>;
