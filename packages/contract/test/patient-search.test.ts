import { describe, expect, it } from 'vitest';
import { parsePatientSearchText } from '../src/rules/patient-search.ts';

describe('parsePatientSearchText', () => {
  it('reads names as lower-case words in any order', () => {
    expect(parsePatientSearchText('  Doe, Jane ')).toEqual({ words: ['doe', 'jane'], dobIso: null, phoneDigits: null });
    expect(parsePatientSearchText("O'Brien")).toEqual({ words: ["o'brien"], dobIso: null, phoneDigits: null });
  });
  it('reads a date of birth in any §5 format or ISO', () => {
    expect(parsePatientSearchText('04/05/1970').dobIso).toBe('1970-04-05');
    expect(parsePatientSearchText('4/5/70', 2026).dobIso).toBe('1970-04-05');
    expect(parsePatientSearchText('1970-04-05').dobIso).toBe('1970-04-05');
    // Typed as MMDDYY: a date, and also digits that could be part of a phone number.
    expect(parsePatientSearchText('040570', 2026)).toEqual({ words: [], dobIso: '1970-04-05', phoneDigits: '040570' });
  });
  it('reads phone numbers in common shapes', () => {
    expect(parsePatientSearchText('(614) 555-0101').phoneDigits).toBe('6145550101');
    expect(parsePatientSearchText('+1 614.555.0101').phoneDigits).toBe('6145550101');
    expect(parsePatientSearchText('1-614-555-0101').phoneDigits).toBe('6145550101');
    expect(parsePatientSearchText('0101').phoneDigits).toBe('0101');
    expect(parsePatientSearchText('12').phoneDigits).toBeNull();
  });
});
