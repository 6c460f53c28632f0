import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  capitalizeName,
  formatPhoneDisplay,
  formatPhoneInput,
  isAlphanumeric,
  isDateText,
  isEmail,
  isFullName,
  isLettersDigitsSpacesDots,
  isNpi,
  isUsPhone,
  isUsState,
  isZip,
  US_STATES,
} from '../src/index.ts';

describe('format checks', () => {
  it('email: text, @, domain ending of 2 to 15 letters', () => {
    expect(isEmail('dr.smith@clinic.com')).toBe(true);
    expect(isEmail('a@b.museum')).toBe(true);
    expect(isEmail('a@b.c')).toBe(false);
    expect(isEmail('a@b.abcdefghijklmnop')).toBe(false);
    expect(isEmail('a@b.co1')).toBe(false);
    expect(isEmail('no-at.com')).toBe(false);
    expect(isEmail('a b@c.com')).toBe(false);
  });
  it('letters, digits, spaces and dots', () => {
    expect(isLettersDigitsSpacesDots('Dr. Jane 2')).toBe(true);
    expect(isLettersDigitsSpacesDots('Jane-Doe')).toBe(false);
  });
  it('US phone (ddd) ddd-dddd', () => {
    expect(isUsPhone('(555) 123-4567')).toBe(true);
    expect(isUsPhone('555-123-4567')).toBe(false);
    expect(isUsPhone('(555)123-4567')).toBe(false);
  });
  it('ZIP with optional +4', () => {
    expect(isZip('43215')).toBe(true);
    expect(isZip('43215-1234')).toBe(true);
    expect(isZip('4321')).toBe(false);
    expect(isZip('43215-12')).toBe(false);
  });
  it('letters and digits only', () => {
    expect(isAlphanumeric('abc123')).toBe(true);
    expect(isAlphanumeric('abc 123')).toBe(false);
    expect(isAlphanumeric('')).toBe(false);
  });
  it('dates in US formats or YYYY-MM-DD', () => {
    expect(isDateText('01/02/2024')).toBe(true);
    expect(isDateText('2024-01-02')).toBe(true);
    expect(isDateText('2024-02-30')).toBe(false);
  });
  it('full name', () => {
    expect(isFullName('Jane Doe')).toBe(true);
    expect(isFullName('Dr. Jane Q. Doe')).toBe(true);
    expect(isFullName('Jane')).toBe(false);
    expect(isFullName('J Doe')).toBe(false);
    expect(isFullName('Jane D')).toBe(false);
    expect(isFullName('Jane Doe2')).toBe(false);
    expect(isFullName("Mary-Jane O'Neil")).toBe(true);
    expect(isFullName('Jane O’Neil')).toBe(true);
    expect(isFullName('Jane Doe;')).toBe(false);
    expect(isFullName('Jane <b>Doe</b>')).toBe(false);
    expect(isFullName("Jane '")).toBe(false);
    expect(isFullName('Jane --')).toBe(false);
  });
  it('full names never contain digits', () => {
    fc.assert(fc.property(fc.string(), (s) => (isFullName(s) ? !/\d/.test(s) : true)));
  });
});

describe('US states', () => {
  it('has the 50 states and not DC', () => {
    expect(US_STATES).toHaveLength(50);
    expect(new Set(US_STATES).size).toBe(50);
    expect(isUsState('OH')).toBe(true);
    expect(isUsState('DC')).toBe(false);
    expect(isUsState('oh')).toBe(false);
  });
});

describe('phone display', () => {
  it('formats ten digits in any shape as ddd.ddd.dddd', () => {
    expect(formatPhoneDisplay('(555) 123-4567')).toBe('555.123.4567');
    expect(formatPhoneDisplay('+1 555 123 4567')).toBe('555.123.4567');
    expect(formatPhoneDisplay('5551234567')).toBe('555.123.4567');
    expect(formatPhoneDisplay('123')).toBe('123');
    expect(formatPhoneDisplay(null)).toBe('');
  });
  it('display and input forms agree on every ten-digit number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[2-9]\d{9}$/), (digits) => {
        const input = formatPhoneInput(digits);
        expect(input && isUsPhone(input)).toBe(true);
        expect(formatPhoneDisplay(input)).toBe(`${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}`);
      }),
    );
  });
});

describe('capitalizeName', () => {
  it('capitalises words, hyphenated parts and after apostrophes', () => {
    expect(capitalizeName('JOHN smith')).toBe('John Smith');
    expect(capitalizeName("mary-jane o'neil")).toBe("Mary-Jane O'Neil");
    expect(capitalizeName('')).toBe('');
  });
  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => capitalizeName(capitalizeName(s)) === capitalizeName(s)));
  });
});

describe('NPI', () => {
  it('accepts NPIs with a valid check digit', () => {
    expect(isNpi('1234567893')).toBe(true);
    expect(isNpi('1234567890')).toBe(false);
    expect(isNpi('123456789')).toBe(false);
    expect(isNpi('12345678a3')).toBe(false);
  });
  it('exactly one check digit fits any nine-digit stem', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{9}$/), (stem) => {
        const valid = Array.from({ length: 10 }, (_, d) => `${stem}${d}`).filter(isNpi);
        expect(valid).toHaveLength(1);
      }),
    );
  });
});
