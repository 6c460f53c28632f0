import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answeringRule,
  authorizeChannelOf,
  drugNameMatches,
  faxRoutingRule,
  type RefillRequestFacts,
  ruleSpecificity,
  STANDING_RULE_MESSAGES,
  type StandingRuleForMatch,
  standingRuleInputSchema,
  standingRuleProblem,
} from '../src/index.ts';

const PRACTICE = '00000000-0000-4000-8000-000000000001';
const OTHER_PRACTICE = '00000000-0000-4000-8000-000000000002';
const DR_A = '00000000-0000-4000-8000-0000000000a1';
const DR_B = '00000000-0000-4000-8000-0000000000b1';
const PATIENT = '00000000-0000-4000-8000-0000000000c1';

const request = (overrides: Partial<RefillRequestFacts> = {}): RefillRequestFacts => ({
  practiceId: PRACTICE,
  prescriberId: DR_A,
  patientId: PATIENT,
  drugName: 'Atorvastatin 20 mg tablet',
  ndcs: ['00071015523', null],
  isControlled: false,
  ...overrides,
});

let n = 0;
const rule = (overrides: Partial<StandingRuleForMatch> = {}): StandingRuleForMatch => {
  n += 1;
  return {
    id: `rule-${String(n).padStart(3, '0')}`,
    practiceId: PRACTICE,
    prescriberId: null,
    patientId: null,
    drugName: null,
    ndc: null,
    action: 'discontinued',
    enabled: true,
    createdAt: `2026-11-0${(n % 9) + 1}T10:00:00.000Z`,
    ...overrides,
  };
};

describe('drug names', () => {
  it('match whole words from the start, in any case and spacing', () => {
    expect(drugNameMatches('atorvastatin', 'Atorvastatin 20 mg tablet')).toBe(true);
    expect(drugNameMatches('  ATORVASTATIN   20 mg ', 'Atorvastatin 20 mg tablet')).toBe(true);
    expect(drugNameMatches('Atorvastatin 20 mg tablet', 'Atorvastatin 20 mg tablet')).toBe(true);
    expect(drugNameMatches('atorva', 'Atorvastatin 20 mg tablet')).toBe(false);
    expect(drugNameMatches('20 mg', 'Atorvastatin 20 mg tablet')).toBe(false);
    expect(drugNameMatches('atorvastatin 40', 'Atorvastatin 20 mg tablet')).toBe(false);
    expect(drugNameMatches('', 'Atorvastatin')).toBe(false);
  });
});

describe('which rule answers a request', () => {
  it('specific beats general: patient, then NDC, then drug name, then prescriber, then the practice', () => {
    const practiceWide = rule({ drugName: 'atorvastatin' });
    const byPrescriber = rule({ drugName: 'atorvastatin', prescriberId: DR_A });
    const byNdc = rule({ ndc: '00071015523' });
    const byPatient = rule({ patientId: PATIENT, action: 'needsVisit' });
    const all = [practiceWide, byPrescriber, byNdc, byPatient];
    expect(answeringRule(all, request())?.id).toBe(byPatient.id);
    expect(answeringRule([practiceWide, byPrescriber, byNdc], request())?.id).toBe(byNdc.id);
    expect(answeringRule([practiceWide, byPrescriber], request())?.id).toBe(byPrescriber.id);
    expect(answeringRule([practiceWide, byPrescriber], request({ prescriberId: DR_B }))?.id).toBe(practiceWide.id);
  });

  it('ignores disabled rules, other practices, other patients, other drugs', () => {
    expect(answeringRule([rule({ drugName: 'atorvastatin', enabled: false })], request())).toBeNull();
    expect(answeringRule([rule({ drugName: 'atorvastatin', practiceId: OTHER_PRACTICE })], request())).toBeNull();
    expect(answeringRule([rule({ patientId: DR_B })], request())).toBeNull();
    expect(answeringRule([rule({ drugName: 'lisinopril' })], request())).toBeNull();
    expect(answeringRule([rule({ ndc: '00000000001' })], request())).toBeNull();
    // A disabled specific rule does not shadow an enabled general one.
    const general = rule({ drugName: 'atorvastatin' });
    expect(answeringRule([rule({ patientId: PATIENT, enabled: false }), general], request())?.id).toBe(general.id);
  });

  it('never answers a controlled substance, whatever the rules say', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            prescriberId: fc.constantFrom(null, DR_A),
            patientId: fc.constantFrom(null, PATIENT),
            drugName: fc.constantFrom(null, 'atorvastatin'),
            ndc: fc.constantFrom(null, '00071015523'),
            enabled: fc.boolean(),
          }),
          { maxLength: 8 },
        ),
        (drafts) =>
          answeringRule(
            drafts.map((d) => rule(d)),
            request({ isControlled: true }),
          ) === null,
      ),
    );
  });

  it('always picks a matching enabled rule of the highest specificity, the oldest among equals, whatever the order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            prescriberId: fc.constantFrom(null, DR_A, DR_B),
            patientId: fc.constantFrom(null, PATIENT, DR_B),
            drugName: fc.constantFrom(null, 'atorvastatin', 'lisinopril'),
            ndc: fc.constantFrom(null, '00071015523', '11111111111'),
            enabled: fc.boolean(),
            day: fc.integer({ min: 1, max: 9 }),
          }),
          { maxLength: 10 },
        ),
        (drafts) => {
          const rules = drafts.map(({ day, ...d }) => rule({ ...d, createdAt: `2026-11-0${day}T10:00:00.000Z` }));
          const picked = answeringRule(rules, request());
          const reversed = answeringRule([...rules].reverse(), request());
          expect(reversed?.id).toBe(picked?.id);
          const matching = rules.filter(
            (r) =>
              r.enabled &&
              (r.prescriberId ?? DR_A) === DR_A &&
              (r.patientId ?? PATIENT) === PATIENT &&
              (r.drugName ?? 'atorvastatin') === 'atorvastatin' &&
              (r.ndc ?? '00071015523') === '00071015523',
          );
          if (matching.length === 0) return picked === null;
          const top = Math.max(...matching.map(ruleSpecificity));
          const oldest = matching
            .filter((r) => ruleSpecificity(r) === top)
            .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))[0];
          return picked?.id === oldest?.id;
        },
      ),
    );
  });
});

describe('the rule form', () => {
  const base = { name: 'Statin stopped', practiceId: PRACTICE, action: 'discontinued' };
  it('needs a drug or a patient, so that no rule denies a whole practice’s refills', () => {
    const result = standingRuleInputSchema.safeParse(base);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/Name a drug or a patient/);
    expect(standingRuleInputSchema.safeParse({ ...base, drugName: 'atorvastatin' }).success).toBe(true);
    expect(standingRuleInputSchema.safeParse({ ...base, patientId: PATIENT }).success).toBe(true);
  });

  it('keeps the NDC as 11 digits and refuses other lengths; empty texts read as none', () => {
    const parsed = standingRuleInputSchema.parse({ ...base, ndc: ' 00071-0155-23 ', drugName: '', note: '  ' });
    expect(parsed).toMatchObject({ ndc: '00071015523', drugName: null, note: null, prescriberId: null, enabled: true });
    const short = standingRuleInputSchema.safeParse({ ...base, ndc: '0071-0155-23' });
    expect(short.error?.issues.map((i) => i.message)).toContain('Enter the 11-digit NDC.');
    const tiny = standingRuleInputSchema.safeParse({ ...base, drugName: 'at' });
    expect(tiny.error?.issues.map((i) => i.message)).toContain('Type at least 3 letters of the drug name.');
  });
});

describe('optional picks', () => {
  const base = { name: 'x', practiceId: PRACTICE, action: 'discontinued', drugName: 'Atorvastatin' };
  it('read an empty choice as none and refuse what is not an id', () => {
    expect(standingRuleInputSchema.parse({ ...base, prescriberId: '', patientId: '' })).toMatchObject({
      prescriberId: null,
      patientId: null,
    });
    expect(standingRuleInputSchema.parse({ ...base, prescriberId: DR_A })).toMatchObject({ prescriberId: DR_A });
    const bad = standingRuleInputSchema.safeParse({ ...base, prescriberId: 'not-an-id' });
    expect(bad.error?.issues.map((i) => i.message)).toEqual(['Choose a prescriber.']);
  });
});

describe('"always send by fax" rules', () => {
  it('route but never answer; denial rules answer but never route; the most specific wins among each kind', () => {
    const fax = rule({ action: 'alwaysFax', drugName: 'Atorvastatin' });
    const faxForPatient = rule({ action: 'alwaysFax', patientId: PATIENT });
    const deny = rule({ action: 'discontinued', prescriberId: DR_A, drugName: 'Atorvastatin' });
    expect(answeringRule([fax, faxForPatient], request())).toBeNull();
    expect(answeringRule([fax, deny], request())?.id).toBe(deny.id);
    expect(faxRoutingRule([fax, deny], request())?.id).toBe(fax.id);
    expect(faxRoutingRule([fax, faxForPatient, deny], request())?.id).toBe(faxForPatient.id);
    expect(faxRoutingRule([{ ...fax, enabled: false }], request())).toBeNull();
    expect(faxRoutingRule([fax], request({ isControlled: true }))).toBeNull();
    expect(faxRoutingRule([fax], request({ drugName: 'Lisinopril 10 mg' }))).toBeNull();
  });

  it('may name only a prescriber (their eRx is down), never the whole practice', () => {
    const target = { drugName: null, ndc: null, patientId: null, prescriberId: null };
    expect(standingRuleProblem({ ...target, action: 'alwaysFax' })).toBe(STANDING_RULE_MESSAGES.needsTarget);
    expect(standingRuleProblem({ ...target, action: 'alwaysFax', prescriberId: DR_A })).toBeNull();
    expect(standingRuleProblem({ ...target, action: 'discontinued', prescriberId: DR_A })).toBe(
      STANDING_RULE_MESSAGES.needsDrugOrPatient,
    );
  });

  it('turn an eRx practice’s authorization into a fax', () => {
    expect(authorizeChannelOf('eRx')).toBe('erx');
    expect(authorizeChannelOf('eRx', 'Levothyroxine by fax')).toBe('fax');
    expect(authorizeChannelOf('Fax')).toBe('fax');
    expect(authorizeChannelOf(null, null)).toBe('fax');
  });
});
