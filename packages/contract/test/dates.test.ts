import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daysInMonth,
  expandTwoDigitYear,
  formatApiDate,
  formatMonthDayTime,
  formatPrescribedDate,
  formatUsDate,
  isoOfTypedDay,
  parseApiDateTime,
  parseDateInput,
  parseIsoDate,
  toIsoDate,
} from '../src/index.ts';

const ref = 2026;

describe('parseDateInput accepts all ten formats', () => {
  const cases: [string, string, string][] = [
    ['MM/DD/YYYY', '03/14/2024', '2024-03-14'],
    ['MM/D/YYYY', '03/4/2024', '2024-03-04'],
    ['MM/D/YY', '03/4/24', '2024-03-04'],
    ['MM/DD/YY', '03/14/24', '2024-03-14'],
    ['M/DD/YYYY', '3/14/2024', '2024-03-14'],
    ['M/D/YYYY', '3/4/2024', '2024-03-04'],
    ['M/D/YY', '3/4/24', '2024-03-04'],
    ['M/DD/YY', '3/14/24', '2024-03-14'],
    ['MMDDYY', '031424', '2024-03-14'],
    ['MMDDYYYY', '03142024', '2024-03-14'],
  ];
  for (const [format, input, iso] of cases) {
    it(format, () => {
      const parsed = parseDateInput(input, ref);
      expect(parsed && toIsoDate(parsed)).toBe(iso);
    });
  }
});

describe('parseDateInput is strict', () => {
  it.each([
    '02/30/2024',
    '02/29/2023',
    '13/01/2024',
    '00/10/2024',
    '01/00/2024',
    '1/1/202',
    '2024-01-01',
    '01-01-2024',
    '0101202',
    '',
    'abc',
    '1/1/2024x',
  ])('rejects %s', (input) => {
    expect(parseDateInput(input, ref)).toBeNull();
  });

  it('accepts 29 February in leap years only', () => {
    expect(parseDateInput('02/29/2024', ref)).not.toBeNull();
    expect(parseDateInput('02/29/1900', ref)).toBeNull();
    expect(parseDateInput('02/29/2000', ref)).not.toBeNull();
  });

  it('round-trips every real date through MM/DD/YYYY', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (year, month, day) => {
          const valid = day <= daysInMonth(year, month);
          const text = `${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}/${year}`;
          const parsed = parseDateInput(text, ref);
          if (valid) expect(parsed).toEqual({ year, month, day });
          else expect(parsed).toBeNull();
        },
      ),
    );
  });
});

describe('two-digit years', () => {
  it('map into the 100 years ending ten years after the reference year', () => {
    expect(expandTwoDigitYear(36, 2026)).toBe(2036);
    expect(expandTwoDigitYear(37, 2026)).toBe(1937);
    expect(expandTwoDigitYear(0, 2026)).toBe(2000);
    expect(expandTwoDigitYear(99, 2026)).toBe(1999);
    expect(expandTwoDigitYear(5, 2095)).toBe(2105);
  });

  it('always land within (ref - 90, ref + 10]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1950, max: 2200 }), (yy, year) => {
        const full = expandTwoDigitYear(yy, year);
        expect(full % 100).toBe(yy);
        expect(full).toBeLessThanOrEqual(year + 10);
        expect(full).toBeGreaterThan(year + 10 - 100);
      }),
    );
  });
});

describe('display formats', () => {
  const now = new Date(2026, 10, 23, 15, 0, 0);
  it('MM/DD/YYYY', () => {
    expect(formatUsDate({ year: 2024, month: 3, day: 4 })).toBe('03/04/2024');
    expect(formatApiDate('2024-03-04 10:11:12')).toBe('03/04/2024');
    expect(formatApiDate('garbage')).toBe('');
  });
  it('Today h:mm am/pm for today, date and time otherwise', () => {
    expect(formatPrescribedDate('2026-11-23 09:05:00', now)).toBe('Today 9:05 am');
    expect(formatPrescribedDate('2026-11-23 00:30:00', now)).toBe('Today 12:30 am');
    expect(formatPrescribedDate('2026-11-23 12:00:00', now)).toBe('Today 12:00 pm');
    expect(formatPrescribedDate('2026-11-22 23:59:00', now)).toBe('11/22/2026 11:59 pm');
  });
  it('MM/DD, h:mm am/pm (12-hour, as every time in the portal)', () => {
    expect(formatMonthDayTime('2026-01-05 07:08:09Z')).toBe('01/05, 7:08 am');
    expect(formatMonthDayTime('2026-01-05 19:08:09Z')).toBe('01/05, 7:08 pm');
    expect(formatMonthDayTime(null)).toBe('');
  });
  it('reads API date-times strictly', () => {
    expect(parseApiDateTime('2026-02-30 10:00:00')).toBeNull();
    expect(parseApiDateTime('2026-02-03T25:00:00')).toBeNull();
    expect(parseApiDateTime('2026-02-03T10:00:00.123Z')).toMatchObject({ hour: 10 });
    expect(parseIsoDate('2026-2-3')).toBeNull();
  });
});

describe('isoOfTypedDay: what a day field reads (issue 47)', () => {
  it('reads every US format and YYYY-MM-DD alike, and nothing that is not a real day', () => {
    expect(isoOfTypedDay('12/10/2026', ref)).toBe('2026-12-10');
    expect(isoOfTypedDay(' 121026 ', ref)).toBe('2026-12-10');
    expect(isoOfTypedDay('2026-12-10', ref)).toBe('2026-12-10');
    for (const bad of ['', '02/30/2026', '2026-02-30', '13/01/2026', 'tomorrow', '12/10/2026\u0000', '2026-12-1']) {
      expect(isoOfTypedDay(bad, ref)).toBeNull();
    }
  });
  it('round-trips every real day through the text the field shows', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(1900, 0, 1), max: new Date(2100, 11, 31), noInvalidDate: true }), (date) => {
        const day = { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
        expect(isoOfTypedDay(formatUsDate(day), ref)).toBe(toIsoDate(day));
        expect(isoOfTypedDay(toIsoDate(day), ref)).toBe(toIsoDate(day));
      }),
    );
  });
});
