import { describe, expect, it } from 'vitest';
import { isFhirDate, parseFhirDate } from '../src/rules/fhir-dates.ts';

const range = (text: string, kind: 'date' | 'dateTime' | 'search' = 'search') => {
  const r = parseFhirDate(text, kind);
  return r && [r.start.toISOString(), r.end.toISOString()];
};

describe('FHIR dates (one calendar rule)', () => {
  it('names the range of its precision', () => {
    expect(range('2026')).toEqual(['2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(range('2024-02')).toEqual(['2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z']);
    expect(range('2026-11-29')).toEqual(['2026-11-29T00:00:00.000Z', '2026-11-30T00:00:00.000Z']);
    expect(range('2026-11-29T10:15Z')).toEqual(['2026-11-29T10:15:00.000Z', '2026-11-29T10:16:00.000Z']);
    expect(range('2026-11-29T10:15:30-05:00')).toEqual(['2026-11-29T15:15:30.000Z', '2026-11-29T15:15:31.000Z']);
    expect(range('2026-11-29T10:15:30.25+01:00')).toEqual(['2026-11-29T09:15:30.250Z', '2026-11-29T09:15:30.251Z']);
    expect(range('0001-01-01')?.[0]).toBe('0001-01-01T00:00:00.000Z');
    expect(range('0099-12-31')?.[0]).toBe('0099-12-31T00:00:00.000Z');
  });

  it('refuses days, times and zones that do not exist instead of rolling them over', () => {
    for (const text of [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '0000-01-01',
      '2026-01-15T24:00:00Z',
      '2026-01-15T10:60:00Z',
      '2026-01-15T10:00:60Z',
      '2026-01-15T10:00:00+14:01',
      '2026-01-15T10:00:00+05:60',
      '2026-1-5',
      '26-01-05',
      '2026-01-15 10:00:00Z',
      '',
    ]) {
      expect(parseFhirDate(text, 'search'), text).toBeNull();
    }
    expect(isFhirDate('2024-02-29', 'date')).toBe(true);
    expect(isFhirDate('2000-02-29', 'date')).toBe(true);
  });

  it('keeps each kind to its own shape', () => {
    expect(isFhirDate('2026-01-15T10:00:00Z', 'date')).toBe(false);
    expect(isFhirDate('2026-01-15T10:00Z', 'dateTime')).toBe(false);
    expect(isFhirDate('2026-01-15T10:00:00', 'dateTime')).toBe(false);
    expect(isFhirDate('2026-01-15T10:00:00Z', 'dateTime')).toBe(true);
    expect(isFhirDate('2026-01-15T10:00Z', 'search')).toBe(true);
    expect(isFhirDate('2026-01-15T10:00:00-12:00', 'dateTime')).toBe(true);
  });
});
