/**
 * Standing rules (issue 23, docs/decisions/0038-standing-rules.md): a practice's prescriber tells the portal once
 * what to answer to refill requests it should stop seeing — "discontinued, do not request refills", "needs a visit
 * first". The server applies them when a request arrives and when a rule is saved; the screen previews the same
 * choice. One rule set, read here by both sides. "Always send by fax" answers nothing: it routes a request's
 * authorization to the pharmacy by fax, whatever the practice's eRx setting (decision 0038 addendum).
 */

export const STANDING_RULE_ACTIONS = ['discontinued', 'needsVisit', 'alwaysFax'] as const;
export type StandingRuleAction = (typeof STANDING_RULE_ACTIONS)[number];
/** The rules that answer a request (as a denial); `alwaysFax` routes the prescriber's authorization instead. */
export const DENIAL_RULE_ACTIONS = ['discontinued', 'needsVisit'] as const satisfies readonly StandingRuleAction[];
export type DenialRuleAction = (typeof DENIAL_RULE_ACTIONS)[number];
export const isDenialRule = (action: StandingRuleAction): action is DenialRuleAction =>
  (DENIAL_RULE_ACTIONS as readonly string[]).includes(action);

export const STANDING_RULE_ACTION_LABELS: Record<StandingRuleAction, string> = {
  discontinued: 'Discontinued — do not request refills',
  needsVisit: 'Needs a visit first — deny with this reason',
  alwaysFax: 'Always send by fax — authorizations go by fax, not eRx',
};

/** The denial each answering rule sends (the refill denial reasons of the deny form). */
export const STANDING_RULE_DENIAL: Record<DenialRuleAction, 'NO_LONGER_TAKING_MEDS' | 'NEED_OFFICE_VISIT'> = {
  discontinued: 'NO_LONGER_TAKING_MEDS',
  needsVisit: 'NEED_OFFICE_VISIT',
};

export const STANDING_RULE_LIMITS = { nameMax: 80, noteMax: 500, drugNameMin: 3, drugNameMax: 120 } as const;

/** What a rule is for: always one practice; optionally one prescriber, one drug (by name or NDC), one patient. */
export interface StandingRuleTarget {
  practiceId: string;
  prescriberId: string | null;
  patientId: string | null;
  drugName: string | null;
  ndc: string | null;
}

export interface StandingRuleForMatch extends StandingRuleTarget {
  id: string;
  action: StandingRuleAction;
  enabled: boolean;
  /** ISO instant; among equally specific rules the older one wins, so a new rule never silently takes over. */
  createdAt: string;
}

/** The facts of a refill request a rule is matched against. */
export interface RefillRequestFacts {
  practiceId: string;
  prescriberId: string;
  patientId: string;
  drugName: string;
  /** The prescribed and dispensed NDCs (11 digits, without dashes), either may be missing. */
  ndcs: (string | null)[];
  isControlled: boolean;
}

const normalizeName = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');
export const normalizeNdc = (text: string) => text.replace(/\D/g, '');

/** A drug name given in a rule matches the drug with that name, whole words from its start: "atorvastatin" matches "Atorvastatin 20 mg tablet", "atorva" does not. */
export function drugNameMatches(ruleName: string, drugName: string): boolean {
  const rule = normalizeName(ruleName);
  const drug = normalizeName(drugName);
  return rule.length > 0 && (drug === rule || drug.startsWith(`${rule} `));
}

export function ruleMatches(rule: StandingRuleTarget, request: RefillRequestFacts): boolean {
  if (rule.practiceId !== request.practiceId) return false;
  if (rule.prescriberId !== null && rule.prescriberId !== request.prescriberId) return false;
  if (rule.patientId !== null && rule.patientId !== request.patientId) return false;
  if (rule.ndc !== null && !request.ndcs.some((ndc) => ndc !== null && normalizeNdc(ndc) === normalizeNdc(rule.ndc ?? ''))) {
    return false;
  }
  if (rule.drugName !== null && !drugNameMatches(rule.drugName, request.drugName)) return false;
  return true;
}

/**
 * How specific a rule is: a patient beats a drug, an NDC beats a drug name, a drug beats a prescriber, a prescriber
 * beats the whole practice. Weights are powers of two, so any rule naming a patient outranks every rule that does not.
 */
export function ruleSpecificity(rule: StandingRuleTarget): number {
  return (
    (rule.patientId !== null ? 8 : 0) +
    (rule.ndc !== null ? 4 : 0) +
    (rule.drugName !== null ? 2 : 0) +
    (rule.prescriberId !== null ? 1 : 0)
  );
}

/**
 * The rule that answers a request: the most specific enabled rule that matches it (the older one of two equally
 * specific). Disabled rules never count. A controlled substance is never answered by a rule: it always reaches the
 * prescriber.
 */
export function answeringRule<R extends StandingRuleForMatch>(rules: readonly R[], request: RefillRequestFacts): R | null {
  return mostSpecificRule(
    rules.filter((r) => isDenialRule(r.action)),
    request,
  ) as (R & { action: DenialRuleAction }) | null;
}

/**
 * The "always send by fax" rule that routes a request's authorization, chosen as answering rules are (the most
 * specific enabled one, the older of equals); never for a controlled substance. A request a rule answers is not
 * routed: it no longer waits.
 */
export function faxRoutingRule<R extends StandingRuleForMatch>(rules: readonly R[], request: RefillRequestFacts): R | null {
  return mostSpecificRule(
    rules.filter((r) => r.action === 'alwaysFax'),
    request,
  );
}

function mostSpecificRule<R extends StandingRuleForMatch>(rules: readonly R[], request: RefillRequestFacts): R | null {
  if (request.isControlled) return null;
  let best: R | null = null;
  for (const rule of rules) {
    if (!rule.enabled || !ruleMatches(rule, request)) continue;
    if (
      best === null ||
      ruleSpecificity(rule) > ruleSpecificity(best) ||
      (ruleSpecificity(rule) === ruleSpecificity(best) &&
        (rule.createdAt < best.createdAt || (rule.createdAt === best.createdAt && rule.id < best.id)))
    ) {
      best = rule;
    }
  }
  return best;
}

export const STANDING_RULE_MESSAGES = {
  needsDrugOrPatient:
    'Name a drug or a patient: a rule that denies every refill of a practice or a prescriber belongs in Practice Preferences.',
  needsTarget:
    'Name a prescriber, a drug or a patient: how the whole practice sends authorizations is its Practice Preferences’ “prescribe via”.',
  faxOnly: 'A standing rule sends this one by fax: authorize it by fax.',
  notFound: 'Standing rule not found.',
  prescriberOnly: 'Only a prescriber of the practice can make or change its standing rules.',
} as const;

/**
 * A denial rule must name what it is about (a drug or a patient); a fax rule may also be one prescriber's (whose eRx
 * is not set up), never the whole practice's (that is the practice's own setting).
 */
export function standingRuleProblem(
  rule: Pick<StandingRuleTarget, 'drugName' | 'ndc' | 'patientId' | 'prescriberId'> & { action?: StandingRuleAction },
) {
  const namesDrugOrPatient = rule.drugName !== null || rule.ndc !== null || rule.patientId !== null;
  if (rule.action === 'alwaysFax')
    return namesDrugOrPatient || rule.prescriberId !== null ? null : STANDING_RULE_MESSAGES.needsTarget;
  return namesDrugOrPatient ? null : STANDING_RULE_MESSAGES.needsDrugOrPatient;
}

/** What the timeline reads when a rule routes a request's authorization by fax. */
export const routedByRuleText = (name: string) => `Authorization goes by fax: rule “${name}”`;

/** What the timeline and the pharmacy read beside a request a rule answered. */
export const answeredByRuleText = (name: string) => `answered by rule “${name}”`;
