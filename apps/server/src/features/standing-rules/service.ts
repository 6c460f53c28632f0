/**
 * Standing rules (issue 23, decision 0038): a practice's own people read its rules; its prescribers make, change and
 * remove them. Saving a rule applies the practice's rules to its open refill requests in the same transaction, with
 * the same choice the preview showed (lib/standing-rules.ts). Outside the user's practices: 404; staff or support
 * access trying to write: 403.
 */
import {
  CLINICAL_REFUSALS,
  COVERAGE_MESSAGES,
  maySignFor,
  type RuleAnsweredItem,
  STANDING_RULE_MESSAGES,
  type StandingRuleInput,
  type StandingRuleSaved,
  type StandingRulesResponse,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { type AuditEntry, auditingRefusals, entryOf, writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { clinicalAccessOf, practicesWithPatientAccess } from '../../lib/office-scope.ts';
import { prescribersOf } from '../../lib/practice-prescribers.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { signingOf } from '../../lib/signing.ts';
import {
  answersOf,
  applyRules,
  type FaxRoute,
  faxRoutesOf,
  openRefillRequests,
  type PracticeRule,
  type RuleAnswer,
  rulesOfPractice,
} from '../../lib/standing-rules.ts';
import * as repo from './repository.ts';

const itemOf = ({ request, rule }: RuleAnswer): RuleAnsweredItem => ({
  prescriptionId: request.id,
  ruleId: rule.id === DRAFT_ID ? null : rule.id,
  ruleName: rule.name,
  patientName: request.patientName,
  drugName: [request.drugName, request.strength].filter(Boolean).join(' '),
  prescriberName: request.prescriberName,
});

/** What the rules do to the waiting requests, as the screen lists it: the answers, then the new fax routes. */
const itemsOf = (answers: RuleAnswer[], routes: FaxRoute[]): RuleAnsweredItem[] => [
  ...answers.map(itemOf),
  ...routes.flatMap(({ request, rule }) => (rule ? [itemOf({ request, rule })] : [])),
];

/** Who applies the rules (audit rows name the prescriber who saved or deleted one). */
const contextOf = (ctx: SignedInContext) => ({ requestId: ctx.requestId, actorUserId: ctx.userId, ip: ctx.ip });

/** The id a draft takes in a preview (never a stored rule's). */
const DRAFT_ID = 'draft';

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, [{ path: `body.${path}`, message }]);

export function createStandingRulesService({ db }: { db: Database }) {
  /** The practice is the user's (else 404) and the user one of its prescribers (else 403 with the reason). */
  async function assertManages(tx: Executor, ctx: SignedInContext, practiceId: string) {
    const practices = await practicesWithPatientAccess(tx, ctx.userId);
    if (!practices.includes(practiceId)) throw notFound('Practice');
    const access = await clinicalAccessOf(tx, ctx.userId);
    if (access === 'readOnly') throw new AppError('FORBIDDEN', CLINICAL_REFUSALS.readOnly);
    if (access !== 'sign') throw new AppError('FORBIDDEN', STANDING_RULE_MESSAGES.prescriberOnly);
    return practices;
  }

  /** A named prescriber or patient must be the practice's own (a 400 naming the field, not a silent no-match). */
  async function assertBelongs(tx: Executor, ctx: SignedInContext, input: StandingRuleInput) {
    const belongs = await repo.belongsToPractice(tx, input.practiceId, input);
    if (!belongs.prescriber) throw invalid('rule.prescriberId', 'Choose one of the practice’s prescribers.');
    if (!belongs.patient) throw invalid('rule.patientId', 'Choose a patient of the practice.');
    // A rule answers as its author would sign (decision 0041): where the practice keeps signing to each prescriber
    // and whoever covers for them, a rule names a prescriber its author signs for, never the whole practice.
    const { ownPrescriberId, facts } = await signingOf(tx, ctx.userId);
    if (!facts.ownOrCoveringPracticeIds.includes(input.practiceId)) return;
    const item = { practiceId: input.practiceId, prescriberId: input.prescriberId ?? '' };
    if (!input.prescriberId || !maySignFor(facts, ownPrescriberId, item, new Date())) {
      throw invalid('rule.prescriberId', COVERAGE_MESSAGES.ruleNotYours);
    }
  }

  /** The practice's rules with the draft in place of its saved form (or added), as they would stand once saved. */
  function withDraft(rules: PracticeRule[], input: StandingRuleInput, id: string, createdAt: string): PracticeRule[] {
    const draft: PracticeRule = { ...input, id, createdAt };
    return [...rules.filter((r) => r.id !== id), draft];
  }

  /** The audit entry of a call on a rule: the practice and the patient it names (refused attempts are audited too). */
  const entryFor = (
    ctx: SignedInContext,
    action: string,
    ruleId: string | null,
    rule: { practiceId: string; patientId: string | null },
  ) => entryOf(ctx, action, 'standing-rule', ruleId, { practiceId: rule.practiceId, patientId: rule.patientId });

  /** Saves (insert or update) and applies the practice's rules to its open refill requests, in one transaction. */
  async function save(
    ctx: SignedInContext,
    input: StandingRuleInput,
    entry: AuditEntry,
    write: (tx: Executor) => Promise<string>,
  ): Promise<StandingRuleSaved> {
    return auditingRefusals(db, entry, () =>
      db.transaction(async (tx) => {
        const practices = await assertManages(tx, ctx, input.practiceId);
        await assertBelongs(tx, ctx, input);
        const id = await write(tx);
        const rules = await rulesOfPractice(tx, input.practiceId);
        const { answers, routes } = await applyRules(tx, input.practiceId, rules, contextOf(ctx));
        await writeAudit(tx, { ...entry, entityId: id, details: { ...entry.details, answered: answers.length } });
        const [rule] = await repo.ruleRecords(tx, { id, practiceIds: practices });
        if (!rule) throw new Error('a saved standing rule could not be read back');
        return { rule, answered: itemsOf(answers, routes) };
      }),
    );
  }

  return {
    async list(ctx: SignedInContext): Promise<StandingRulesResponse> {
      const practices = await practicesWithPatientAccess(db, ctx.userId);
      const records = await repo.ruleRecords(db, { practiceIds: practices });
      const mayManage = practices.length > 0 && (await clinicalAccessOf(db, ctx.userId)) === 'sign';
      const manageable: StandingRulesResponse['manageable'] = mayManage ? await prescribersOf(db, practices) : [];
      // Rules can name patients: reading them is a patient-data read.
      await writeAudit(
        db,
        entryOf(ctx, 'standing-rule.list', 'standing-rule', null, {
          patientIds: [...new Set(records.flatMap((r) => (r.patientId ? [r.patientId] : [])))],
        }),
      );
      return { records, manageable };
    },

    /** What saving the draft would answer now; nothing is written but the audit row of the read. */
    async preview(ctx: SignedInContext, input: StandingRuleInput, ruleId: string | null) {
      const entry = entryFor(ctx, 'standing-rule.preview', ruleId, input);
      return auditingRefusals(db, entry, () =>
        db.transaction(async (tx) => {
          const practices = await assertManages(tx, ctx, input.practiceId);
          await assertBelongs(tx, ctx, input);
          const saved = ruleId ? await repo.lockRule(tx, ruleId, practices) : null;
          if (ruleId && saved?.practiceId !== input.practiceId) throw notFound('Standing rule');
          const rules = withDraft(
            await rulesOfPractice(tx, input.practiceId),
            input,
            ruleId ?? DRAFT_ID,
            saved?.createdAt ?? new Date().toISOString(),
          );
          const requests = await openRefillRequests(tx, input.practiceId);
          const answers = answersOf(rules, requests);
          const items = itemsOf(answers, faxRoutesOf(rules, requests, answers));
          await writeAudit(tx, { ...entry, details: { ...entry.details, prescriptionIds: items.map((i) => i.prescriptionId) } });
          return { items };
        }),
      );
    },

    create: (ctx: SignedInContext, input: StandingRuleInput) =>
      save(ctx, input, entryFor(ctx, 'standing-rule.created', null, input), (tx) => repo.insertRule(tx, input, ctx.userId)),

    update: (ctx: SignedInContext, id: string, input: StandingRuleInput, version: number) =>
      save(ctx, input, entryFor(ctx, 'standing-rule.updated', id, input), async (tx) => {
        const practices = await practicesWithPatientAccess(tx, ctx.userId);
        const current = await repo.lockRule(tx, id, practices);
        if (!current) throw notFound('Standing rule');
        if (current.practiceId !== input.practiceId) {
          throw invalid('rule.practiceId', 'A rule stays with its practice: make a new rule for another one.');
        }
        if (current.version !== version) {
          throw new AppError('CONFLICT', 'Someone changed this rule since you opened it. Open it again to see the change.');
        }
        await repo.updateRule(tx, id, input);
        return id;
      }),

    async remove(ctx: SignedInContext, id: string): Promise<void> {
      const practices = await practicesWithPatientAccess(db, ctx.userId);
      const seen = await repo.lockRule(db, id, practices, { lock: false });
      if (!seen) throw notFound('Standing rule');
      const entry = entryFor(ctx, 'standing-rule.deleted', id, seen);
      await auditingRefusals(db, entry, () =>
        db.transaction(async (tx) => {
          const current = await repo.lockRule(tx, id, practices);
          if (!current) throw notFound('Standing rule');
          await assertManages(tx, ctx, current.practiceId);
          await repo.deleteRule(tx, id, current.practiceId);
          // What the deleted rule routed by fax (cleared with it) may now be another rule's to route.
          await applyRules(tx, current.practiceId, await rulesOfPractice(tx, current.practiceId), contextOf(ctx));
          await writeAudit(tx, entry);
        }),
      );
    },
  };
}
export type StandingRulesService = ReturnType<typeof createStandingRulesService>;
