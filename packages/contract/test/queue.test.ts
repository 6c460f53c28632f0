import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bulkLeftOutReason,
  compareUrgency,
  daysBetweenIsoDays,
  runOutInDays,
  runOutText,
  splitForBulk,
  supplyLeftText,
  type UrgencyFields,
} from '../src/index.ts';

describe('run-out days (issue 22)', () => {
  it('is last fill + days supply - today, across months, years and a leap day', () => {
    expect(runOutInDays('2026-11-01', 30, '2026-11-20')).toBe(11);
    expect(runOutInDays('2026-10-01', 30, '2026-11-20')).toBe(-20);
    expect(runOutInDays('2027-12-15', 30, '2028-01-14')).toBe(0);
    expect(runOutInDays('2028-02-01', 30, '2028-03-01')).toBe(1); // 29 days in February 2028
    expect(runOutInDays(null, 30, '2026-11-20')).toBeNull();
    expect(runOutInDays('2026-11-01', null, '2026-11-20')).toBeNull();
    expect(daysBetweenIsoDays('2026-11-01', 'not a day')).toBeNull();
  });

  it('words the badge and the supply left', () => {
    expect(runOutText(null)).toBeNull();
    expect(runOutText(-3)).toBe('Out of medication');
    expect(runOutText(0)).toBe('Out of medication');
    expect(runOutText(1)).toBe('Runs out in 1 day');
    expect(runOutText(9)).toBe('Runs out in 9 days');
    expect(supplyLeftText(-3)).toBe('0 days');
    expect(supplyLeftText(1)).toBe('1 day');
    expect(supplyLeftText(null)).toBe('Not reported');
  });
});

describe('urgency order', () => {
  const item = fc.record({
    id: fc.uuid(),
    runOutInDays: fc.option(fc.integer({ min: -30, max: 120 }), { nil: null }),
    waitingSince: fc
      .integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) })
      .map((ms) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`),
  });

  it('puts the soonest run-out first, unknown last, then the longest wait, and is a total order', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (items: UrgencyFields[]) => {
        const sorted = [...items].sort(compareUrgency);
        for (let i = 1; i < sorted.length; i += 1) {
          const a = sorted[i - 1] as UrgencyFields;
          const b = sorted[i] as UrgencyFields;
          const left = (x: UrgencyFields) => x.runOutInDays ?? Number.POSITIVE_INFINITY;
          expect(left(a)).toBeLessThanOrEqual(left(b));
          if (left(a) === left(b))
            expect(Date.parse(a.waitingSince.replace(' ', 'T')) <= Date.parse(b.waitingSince.replace(' ', 'T'))).toBe(true);
        }
        // The same items in any order sort the same.
        expect([...items].reverse().sort(compareUrgency)).toEqual(sorted);
      }),
    );
  });
});

describe('bulk eligibility', () => {
  const refill = {
    needsRefillAuth: true,
    phoneException: false,
    substitutionStatus: null,
    priorAuthStatus: null,
    isControlled: false,
  };
  it('takes what the single action would take, and leaves controlled substances out of refill decisions only', () => {
    expect(bulkLeftOutReason('refillDeny', refill)).toBeNull();
    expect(bulkLeftOutReason('refillDeny', { ...refill, needsRefillAuth: false })).toBe('not waiting for this');
    expect(bulkLeftOutReason('refillAuthorize', { ...refill, isControlled: true })).toBe('controlled substance');
    const pa = { ...refill, needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_REQUIRED', isControlled: true };
    expect(bulkLeftOutReason('priorAuthDismiss', pa)).toBeNull();
    expect(splitForBulk('refillPostpone', [refill, pa])).toEqual({
      takes: [refill],
      leftOut: [{ item: pa, why: 'not waiting for this' }],
    });
  });
});
