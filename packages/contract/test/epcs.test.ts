/**
 * Issue 48, EPCS rules (decision 0059): the DEA number's check digit (any one wrong digit is caught), what a
 * registration covers, the schedules' refill limits with six months counted on the calendar (month ends), and the
 * registration that covers a need or the most telling reason none does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonthsIso,
  controlledRefillProblem,
  coveringRegistration,
  DEA_SCHEDULES,
  deaNumberProblem,
  deaRegistrationInputSchema,
  EPCS_MESSAGES,
  isRegistrantFor,
} from '../src/index.ts';

/** A valid DEA number from a registrant letter, a second letter and six digits. */
const withCheckDigit = (prefix: string, six: number[]) => {
  const [a, b, c, d, e, f] = six as [number, number, number, number, number, number];
  return `${prefix}${six.join('')}${(a + c + e + 2 * (b + d + f)) % 10}`;
};
const digits = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 6 });
const prefix = fc.tuple(fc.constantFrom(...'ABFGMPX'), fc.constantFrom(...'ABCMZ9')).map(([x, y]) => x + y);

describe('DEA numbers', () => {
  it('accepts every number whose check digit is right, typed in any case and with spaces', () => {
    fc.assert(
      fc.property(prefix, digits, (p, six) => {
        const number = withCheckDigit(p, six);
        expect(deaNumberProblem(number)).toBeNull();
        expect(deaNumberProblem(` ${number.toLowerCase().slice(0, 3)} ${number.slice(3)} `)).toBeNull();
      }),
    );
  });

  it('refuses any number with one digit changed', () => {
    fc.assert(
      fc.property(prefix, digits, fc.integer({ min: 2, max: 8 }), fc.integer({ min: 1, max: 9 }), (p, six, at, by) => {
        const number = withCheckDigit(p, six);
        const changed = number.slice(0, at) + String((Number(number[at]) + by) % 10) + number.slice(at + 1);
        // The check digit's weights (1, 2) never make a single change vanish mod 10, except a weight-2 change of 5.
        const weight = at === 8 ? 1 : at % 2 === 0 ? 1 : 2;
        if (weight === 2 && by === 5) return;
        expect(deaNumberProblem(changed)).toBe(EPCS_MESSAGES.deaCheckDigit);
      }),
    );
  });

  it('refuses what is not two letters and seven digits, or an unknown registrant letter', () => {
    for (const bad of ['', 'B1234563', 'BMM123456', 'BM12345', 'BM12345678', '1M1234563', 'IM1234563', 'NM1234563']) {
      expect(deaNumberProblem(bad)).toBe(EPCS_MESSAGES.deaFormat);
    }
  });

  it('the form schema reads it normalized, with the schedules in order', () => {
    const parsed = deaRegistrationInputSchema.parse({
      number: 'bm 1234563',
      schedules: ['V', 'II'],
      state: 'OH',
      expiresOn: '2028-06-30',
    });
    expect(parsed).toEqual({ number: 'BM1234563', schedules: ['II', 'V'], state: 'OH', expiresOn: '2028-06-30' });
    expect(
      deaRegistrationInputSchema.safeParse({ number: 'BM1234563', schedules: [], state: 'OH', expiresOn: '2028-06-30' }).success,
    ).toBe(false);
  });
});

describe('refills of a controlled substance', () => {
  it('counts six months on the calendar, to the month’s last day when it is shorter', () => {
    expect(addMonthsIso('2026-08-31', 6)).toBe('2027-02-28');
    expect(addMonthsIso('2027-08-31', 6)).toBe('2028-02-29');
    expect(addMonthsIso('2026-06-15', 6)).toBe('2026-12-15');
  });

  it('Schedule II never; III to V up to five, until six months after issue', () => {
    const at = { issuedOn: '2026-06-15', today: '2026-12-03' };
    expect(controlledRefillProblem({ schedule: 'II', refills: 0, ...at })).toBe(EPCS_MESSAGES.scheduleTwoRefill);
    for (const schedule of ['III', 'IV', 'V'] as const) {
      expect(controlledRefillProblem({ schedule, refills: 5, ...at })).toBeNull();
      expect(controlledRefillProblem({ schedule, refills: 6, ...at })).toBe(EPCS_MESSAGES.tooManyRefills);
      expect(controlledRefillProblem({ schedule, refills: 1, issuedOn: '2026-06-15', today: '2026-12-15' })).toBeNull();
      expect(controlledRefillProblem({ schedule, refills: 1, issuedOn: '2026-06-15', today: '2026-12-16' })).toBe(
        EPCS_MESSAGES.pastSixMonths,
      );
    }
  });
});

describe('the registration that covers a signature', () => {
  const ohio = { number: 'BM1234563', schedules: ['II', 'III', 'IV', 'V'], state: 'OH', expiresOn: '2028-06-30' };
  const need = { schedule: 'IV' as const, state: 'OH' };
  it('is a current one for the state and the schedule; else says the most telling reason', () => {
    expect(coveringRegistration([ohio], need, '2026-12-03').registration).toBe(ohio);
    expect(coveringRegistration([], need, '2026-12-03').problem).toBe(EPCS_MESSAGES.noRegistration);
    expect(coveringRegistration([{ ...ohio, state: 'IN' }], need, '2026-12-03').problem).toBe(EPCS_MESSAGES.registrationState);
    expect(coveringRegistration([{ ...ohio, expiresOn: '2026-12-02' }], need, '2026-12-03').problem).toBe(
      EPCS_MESSAGES.registrationExpired,
    );
    // Valid through its last day.
    expect(coveringRegistration([{ ...ohio, expiresOn: '2026-12-03' }], need, '2026-12-03').registration).not.toBeNull();
    expect(
      coveringRegistration(
        [
          { ...ohio, schedules: ['II'] },
          { ...ohio, state: 'IN' },
        ],
        need,
        '2026-12-03',
      ).problem,
    ).toBe(EPCS_MESSAGES.registrationSchedule('IV'));
    for (const schedule of DEA_SCHEDULES) {
      expect(coveringRegistration([ohio], { schedule, state: 'OH' }, '2026-12-03').problem).toBeNull();
    }
  });
});

describe('a registrant of a practice', () => {
  it('has a current registration for its state, whatever the schedules', () => {
    const r = { number: 'BM1234563', schedules: ['V'], state: 'OH', expiresOn: '2026-12-03' };
    expect(isRegistrantFor([r], 'OH', '2026-12-03')).toBe(true);
    expect(isRegistrantFor([r], 'OH', '2026-12-04')).toBe(false);
    expect(isRegistrantFor([r], 'IN', '2026-12-03')).toBe(false);
    expect(isRegistrantFor([r], null, '2026-12-03')).toBe(false);
    expect(isRegistrantFor([], 'OH', '2026-12-03')).toBe(false);
  });
});
