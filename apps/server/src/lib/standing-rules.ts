/**
 * Applying a practice's standing rules (issue 23, decision 0038) to its open refill requests: used when the pharmacy
 * puts a request in (features/fhir) and when a prescriber saves a rule (features/standing-rules), so both answer
 * alike. Which rule answers is the contract's rule (`answeringRule`); this file reads the facts and writes the
 * answer as any denial is written — the prescription's state, its timeline event naming the rule, the message to the
 * pharmacy (outbox: fax and webhook) and an audit row — in the caller's transaction.
 */
import {
  answeredByRuleText,
  answeringRule,
  DENIAL_ORDER_STATUS,
  type DenialRuleAction,
  EVENT_TYPES,
  faxRoutingRule,
  type RefillRequestFacts,
  STANDING_RULE_DENIAL,
  type StandingRuleAction,
  type StandingRuleForMatch,
} from '@hcp/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { arrayParam, type Executor } from '../db/client.ts';
import { prescriptions, standingRules } from '../db/schema.ts';
import { writeAudit } from './audit.ts';
import { recordDecision } from './decisions.ts';

export interface PracticeRule extends StandingRuleForMatch {
  name: string;
  note: string | null;
}

export interface OpenRefillRequest extends RefillRequestFacts {
  id: string;
  /** The "always send by fax" rule routing it now, if any. */
  faxRuleId: string | null;
  strength: string | null;
  patientName: string;
  prescriberName: string;
}

export interface RuleAnswer {
  request: OpenRefillRequest;
  rule: PracticeRule;
}

const RULE_COLUMNS = sql`r.id, r.md_office_id as "practiceId", r.prescriber_id as "prescriberId",
  r.patient_id as "patientId", r.drug_name as "drugName", r.ndc, r.action, r.enabled, r.name, r.note,
  to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt"`;

async function ruleRows(db: Executor, query: ReturnType<typeof sql>): Promise<PracticeRule[]> {
  const result = (await db.execute(query)) as unknown as { rows: PracticeRule[] };
  return result.rows.map((r) => ({ ...r, action: r.action as StandingRuleAction }));
}

/** The practice's rules as the contract matches them (enabled or not: the contract ignores disabled ones). */
export const rulesOfPractice = (db: Executor, practiceId: string) =>
  ruleRows(db, sql`select ${RULE_COLUMNS} from standing_rules r where r.md_office_id = ${practiceId}::uuid`);

/** The enabled rules of a prescription's practice: one statement, nothing when the practice has none (most). */
const enabledRulesOfPrescription = (db: Executor, prescriptionId: string) =>
  ruleRows(
    db,
    sql`select ${RULE_COLUMNS} from standing_rules r join prescriptions rx on rx.md_office_id = r.md_office_id
      where rx.id = ${prescriptionId}::uuid and r.enabled`,
  );

/**
 * The practice's refill requests still waiting (postponed ones too: a discontinued drug must not come back on its
 * day), optionally only some prescriptions; locked when `lock` (an answer is written under the lock).
 */
export async function openRefillRequests(
  db: Executor,
  practiceId: string,
  options: { only?: string[]; lock?: boolean } = {},
): Promise<OpenRefillRequest[]> {
  const only = options.only;
  const result = (await db.execute(sql`
    select rx.id, rx.md_office_id as "practiceId", rx.prescriber_id as "prescriberId", rx.patient_id as "patientId",
      rx.drug_name as "drugName", rx.strength, array[rx.prescribed_ndc, rx.dispensed_ndc] as ndcs,
      rx.fax_rule_id as "faxRuleId",
      exists (select 1 from drug_products dp where dp.ndc in (rx.prescribed_ndc, rx.dispensed_ndc) and dp.is_controlled)
        as "isControlled",
      pt.last_name || ', ' || pt.first_name as "patientName", d.first_name || ' ' || d.last_name as "prescriberName"
    from prescriptions rx
    join patients pt on pt.id = rx.patient_id
    join md_staff d on d.id = rx.prescriber_id
    where rx.md_office_id = ${practiceId}::uuid and rx.needs_refill_auth
      ${only ? sql`and rx.id = any(${arrayParam(only, 'uuid')})` : sql``}
    order by rx.id
    ${options.lock ? sql`for update of rx` : sql``}`)) as unknown as { rows: OpenRefillRequest[] };
  return result.rows;
}

type RuleContext = { requestId: string | null; actorUserId: string | null; ip?: string | null };

/** One use of a rule on a request: its audit row (who saved the rule, or nobody on arrival), counted for the rule. */
async function recordRuleUse(
  tx: Executor,
  action: 'standing-rule.answered' | 'standing-rule.routed',
  rule: PracticeRule,
  request: OpenRefillRequest,
  context: RuleContext,
  counts: Map<string, number>,
): Promise<void> {
  await writeAudit(tx, {
    actorUserId: context.actorUserId,
    action,
    entityType: 'prescription',
    entityId: request.id,
    requestId: context.requestId,
    ip: context.ip ?? null,
    details: { ruleId: rule.id, patientId: request.patientId },
  });
  counts.set(rule.id, (counts.get(rule.id) ?? 0) + 1);
}

/** Adds each rule's uses of this round to its count ("answered 14 requests"). */
async function countRuleUses(tx: Executor, counts: ReadonlyMap<string, number>): Promise<void> {
  for (const [ruleId, count] of counts) {
    await tx
      .update(standingRules)
      .set({ answeredCount: sql`${standingRules.answeredCount} + ${count}` })
      .where(eq(standingRules.id, ruleId));
  }
}

/** Which of the requests the rules answer, and with which rule (the contract's choice, request by request). */
export function answersOf(rules: readonly PracticeRule[], requests: readonly OpenRefillRequest[]): RuleAnswer[] {
  return requests.flatMap((request) => {
    const rule = answeringRule(rules, request);
    return rule ? [{ request, rule }] : [];
  });
}

/**
 * Writes each answer as a denial: the request no longer waits, its order status shows the denial, the timeline says
 * which rule answered, the pharmacy hears of it like any decision, the rule's count goes up, and an audit row names
 * the prescription and the rule. `actorUserId`: who saved the rule that is being applied (null on arrival).
 */
export async function writeRuleAnswers(tx: Executor, answers: readonly RuleAnswer[], context: RuleContext): Promise<void> {
  const counts = new Map<string, number>();
  for (const { request, rule } of answers) {
    const reason = STANDING_RULE_DENIAL[rule.action as DenialRuleAction];
    const senderName = `Standing rule: ${rule.name}`;
    await tx
      .update(prescriptions)
      .set({
        needsRefillAuth: false,
        refillPostponedUntil: null,
        orderStatus: DENIAL_ORDER_STATUS[reason] ?? 'Refill Denied',
        version: sql`${prescriptions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(prescriptions.id, request.id));
    const ruleRef = { id: rule.id, name: rule.name };
    await recordDecision(tx, {
      prescriptionId: request.id,
      type: EVENT_TYPES.refillDenied,
      actorUserId: null,
      requestId: context.requestId,
      data: { reason, senderName, rule: ruleRef, ...(rule.note ? { note: rule.note } : {}) },
      message: {
        channel: 'fax',
        recipient: 'pharmacy',
        payload: {
          type: 'refill-denied',
          reason,
          senderName,
          note: rule.note ?? answeredByRuleText(rule.name),
          prescriptionId: request.id,
          drugName: request.drugName,
          strength: request.strength,
        },
      },
    });
    await recordRuleUse(tx, 'standing-rule.answered', rule, request, context, counts);
  }
  await countRuleUses(tx, counts);
}

/** A request whose fax route changes: to the rule now routing it, or to none (the rule was turned off or changed). */
export interface FaxRoute {
  request: OpenRefillRequest;
  rule: PracticeRule | null;
}

/**
 * How the "always send by fax" rules route the requests still waiting (the contract's choice), where that differs
 * from how they are routed now. Requests a rule answers are left out: they no longer wait.
 */
export function faxRoutesOf(
  rules: readonly PracticeRule[],
  requests: readonly OpenRefillRequest[],
  answered: readonly RuleAnswer[] = [],
): FaxRoute[] {
  const gone = new Set(answered.map((a) => a.request.id));
  return requests.flatMap((request) => {
    if (gone.has(request.id)) return [];
    const rule = faxRoutingRule(rules, request);
    return (rule?.id ?? null) === request.faxRuleId ? [] : [{ request, rule }];
  });
}

/**
 * Writes the routes: the request's authorization goes by fax (the timeline names the rule, the rule counts it, an
 * audit row) or, when no rule routes it any more, as the practice sends authorizations. Nothing reaches the pharmacy:
 * the prescriber still decides.
 */
export async function writeFaxRoutes(tx: Executor, routes: readonly FaxRoute[], context: RuleContext): Promise<void> {
  const counts = new Map<string, number>();
  for (const { request, rule } of routes) {
    await tx
      .update(prescriptions)
      .set({ faxRuleId: rule?.id ?? null, version: sql`${prescriptions.version} + 1`, updatedAt: new Date() })
      .where(eq(prescriptions.id, request.id));
    if (!rule) continue;
    await recordDecision(tx, {
      prescriptionId: request.id,
      type: EVENT_TYPES.refillRoutedByRule,
      actorUserId: null,
      requestId: context.requestId,
      data: { rule: { id: rule.id, name: rule.name } },
    });
    await recordRuleUse(tx, 'standing-rule.routed', rule, request, context, counts);
  }
  await countRuleUses(tx, counts);
}

/**
 * Applies rules to a practice's waiting requests (all, or `only` some) under their lock: the answers, then the fax
 * routes of what still waits, written in the caller's transaction. What a rule save, a rule delete and an arriving
 * request all do; the preview runs `answersOf`/`faxRoutesOf` on the same facts without writing.
 */
export async function applyRules(
  tx: Executor,
  practiceId: string,
  rules: readonly PracticeRule[],
  context: RuleContext,
  only?: string[],
): Promise<{ answers: RuleAnswer[]; routes: FaxRoute[] }> {
  const requests = await openRefillRequests(tx, practiceId, { lock: true, ...(only ? { only } : {}) });
  const answers = answersOf(rules, requests);
  const routes = faxRoutesOf(rules, requests, answers);
  await writeRuleAnswers(tx, answers, context);
  await writeFaxRoutes(tx, routes, context);
  return { answers, routes };
}

/**
 * A refill request that just arrived (or reopened): answered at once when one of its practice's rules says so, else
 * routed by fax when an "always send by fax" rule says so. Answers whether a rule answered it.
 */
export async function answerArrivedRequest(tx: Executor, prescriptionId: string, requestId: string | null): Promise<boolean> {
  const rules = await enabledRulesOfPrescription(tx, prescriptionId);
  const practiceId = rules[0]?.practiceId;
  if (!practiceId) {
    // No rule routes it any more (a route left from before the practice turned its rules off).
    await tx
      .update(prescriptions)
      .set({ faxRuleId: null })
      .where(and(eq(prescriptions.id, prescriptionId), isNotNull(prescriptions.faxRuleId)));
    return false;
  }
  const { answers } = await applyRules(tx, practiceId, rules, { requestId, actorUserId: null }, [prescriptionId]);
  return answers.length > 0;
}
