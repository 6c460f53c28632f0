/**
 * Covering prescribers (issue 23, decision 0041): a practice's own people read who signs for whom; its prescribers
 * choose the practice's signing policy and name or end coverages. Outside the user's practices: 404; staff or a
 * support-access window trying to change it: 403. Every change is audited (signatures must stay explainable).
 */
import {
  CLINICAL_REFUSALS,
  COVERAGE_MESSAGES,
  type Coverage,
  type CoverageInput,
  type CoverageResponse,
  coverageProblem,
  type PracticeSigning,
  type SigningPolicyInput,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { auditingRefusals, entryOf, writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { clinicalAccessOf, practicesWithPatientAccess } from '../../lib/office-scope.ts';
import { prescribersOf } from '../../lib/practice-prescribers.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, [{ path: `body.${path}`, message }]);

const withoutPractice = ({ practiceId: _, ...coverage }: Coverage & { practiceId: string }): Coverage => coverage;

export function createCoverageService({ db, now }: { db: Database; now: () => Date }) {
  /** The practice is the user's (else 404) and the user one of its prescribers (else 403 with the reason). */
  async function assertManages(tx: Executor, ctx: SignedInContext, practiceId: string) {
    const practices = await practicesWithPatientAccess(tx, ctx.userId);
    if (!practices.includes(practiceId)) throw notFound('Practice');
    const access = await clinicalAccessOf(tx, ctx.userId);
    if (access === 'readOnly') throw new AppError('FORBIDDEN', CLINICAL_REFUSALS.readOnly);
    if (access !== 'sign') throw new AppError('FORBIDDEN', COVERAGE_MESSAGES.prescriberOnly);
  }

  /** The practices as the screen reads them (each with its prescribers, policy and current and coming coverages). */
  async function practicesView(executor: Executor, userId: string, practiceIds: string[]): Promise<PracticeSigning[]> {
    const [prescribers, policies, records, access] = await Promise.all([
      prescribersOf(executor, practiceIds),
      repo.policiesOf(executor, practiceIds),
      repo.coverageRecords(executor, { practiceIds }),
      clinicalAccessOf(executor, userId),
    ]);
    return prescribers.map((p) => ({
      ...p,
      policy: policies.get(p.practiceId) ?? 'anyPrescriber',
      mayManage: access === 'sign',
      coverages: records.filter((c) => c.practiceId === p.practiceId).map(withoutPractice),
    }));
  }

  return {
    async list(ctx: SignedInContext): Promise<CoverageResponse> {
      const practices = await practicesWithPatientAccess(db, ctx.userId);
      return { practices: await practicesView(db, ctx.userId, practices) };
    },

    async setPolicy(ctx: SignedInContext, input: SigningPolicyInput): Promise<PracticeSigning> {
      const entry = entryOf(ctx, 'signing-policy.updated', 'practice', input.practiceId, { policy: input.policy });
      return auditingRefusals(db, entry, () =>
        db.transaction(async (tx) => {
          await assertManages(tx, ctx, input.practiceId);
          await repo.setPolicy(tx, input.practiceId, input.policy);
          await writeAudit(tx, entry);
          const [practice] = await practicesView(tx, ctx.userId, [input.practiceId]);
          if (!practice) throw new Error('a practice could not be read back');
          return practice;
        }),
      );
    },

    async create(ctx: SignedInContext, input: CoverageInput): Promise<Coverage> {
      const entry = entryOf(ctx, 'coverage.created', 'coverage', null, {
        practiceId: input.practiceId,
        coveringPrescriberId: input.coveringPrescriberId,
        coveredPrescriberId: input.coveredPrescriberId,
      });
      return auditingRefusals(db, entry, () =>
        db.transaction(async (tx) => {
          await assertManages(tx, ctx, input.practiceId);
          const problem = coverageProblem(input, now());
          if (problem) throw invalid(problem.path, problem.message);
          const [practice] = await prescribersOf(tx, [input.practiceId]);
          const prescriberIds = new Set(practice?.prescribers.map((p) => p.id));
          if (!prescriberIds.has(input.coveringPrescriberId))
            throw invalid('coveringPrescriberId', COVERAGE_MESSAGES.notPrescriber);
          if (!prescriberIds.has(input.coveredPrescriberId))
            throw invalid('coveredPrescriberId', COVERAGE_MESSAGES.notPrescriber);
          const id = await repo.insertCoverage(tx, input, ctx.userId);
          await writeAudit(tx, { ...entry, entityId: id });
          const [record] = await repo.coverageRecords(tx, { practiceIds: [input.practiceId], id });
          if (!record) throw new Error('a saved coverage could not be read back');
          return withoutPractice(record);
        }),
      );
    },

    /** Ends a coverage now (kept for the record: the signatures it allowed stay explainable). */
    async end(ctx: SignedInContext, id: string): Promise<void> {
      const practices = await practicesWithPatientAccess(db, ctx.userId);
      const entry = entryOf(ctx, 'coverage.ended', 'coverage', id);
      await auditingRefusals(db, entry, () =>
        db.transaction(async (tx) => {
          const current = await repo.lockCoverage(tx, id, practices);
          if (!current) throw notFound('Coverage');
          await assertManages(tx, ctx, current.practiceId);
          await repo.endCoverage(tx, id, ctx.userId);
          await writeAudit(tx, { ...entry, details: { practiceId: current.practiceId } });
        }),
      );
    },
  };
}
export type CoverageService = ReturnType<typeof createCoverageService>;
