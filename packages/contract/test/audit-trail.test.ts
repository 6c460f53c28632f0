/**
 * Issue 49, the audit trail's shared rules (decision 0061): a CSV cell a spreadsheet never runs and that reads back as
 * the text it was (property-based), the path an access came by, actions in words with their FHIR verb, working hours,
 * and the report queries' date ranges.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditActionMeaning,
  auditChannelOf,
  auditRowPatients,
  csvCell,
  csvLine,
  isAfterHours,
  PATIENT_READ_ACTIONS,
  patientAccessQuerySchema,
  RECORD_READ_ACTIONS,
  shiftIsoDay,
} from '../src/index.ts';

/** RFC 4180 read back: one line of cells. */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

describe('csvCell', () => {
  it('never starts a cell with a formula character, and reads back as the text (an apostrophe before a formula)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 5 }), (texts) => {
        const line = csvLine(texts);
        expect(line.endsWith('\r\n')).toBe(true);
        const back = parseCsvLine(line.slice(0, -2).replace(/\r\n$/, ''));
        // Cells with a line break inside are quoted; the simple reader above handles them within one "line".
        expect(back).toHaveLength(texts.length);
        back.forEach((cell, i) => {
          const text = texts[i] as string;
          expect(cell).toBe(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
          expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        });
      }),
    );
  });

  it('keeps numbers as numbers and empty values empty', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('a,b')).toBe('"a,b"');
  });
});

describe('auditChannelOf', () => {
  it('tells a pharmacy system, an appeal link, a support window and the portal apart', () => {
    expect(auditChannelOf({ actorRole: null, action: 'fhir.Task.read', details: { clientId: 'c' } })).toBe('pharmacy');
    expect(auditChannelOf({ actorRole: null, action: 'appeal.file.read', details: { via: 'pharmacy-link' } })).toBe(
      'appeal-link',
    );
    expect(auditChannelOf({ actorRole: 'provider.admin', action: 'patients.read', details: {} })).toBe('support');
    expect(auditChannelOf({ actorRole: 'mdo.user', action: 'patients.read', details: {} })).toBe('portal');
  });
});

describe('auditActionMeaning', () => {
  it('says refusals, decisions and FHIR calls in words, with their verb; an unknown code stays a code', () => {
    expect(auditActionMeaning('prescription.refillDenied.refused')).toEqual({
      description: 'Refused: Denied a refill',
      verb: 'U',
      refused: true,
    });
    expect(auditActionMeaning('fhir.Task.search')).toMatchObject({ description: 'Searched FHIR Task', verb: 'R' });
    expect(auditActionMeaning('fhir.Task.create')).toMatchObject({ description: 'Wrote FHIR Task', verb: 'C' });
    expect(auditActionMeaning('something.new')).toEqual({ description: 'something.new', verb: 'E', refused: false });
  });

  it('counts the record reads among the patient reads, and a review of the trail as neither', () => {
    for (const action of RECORD_READ_ACTIONS) expect(PATIENT_READ_ACTIONS).toContain(action);
    expect(PATIENT_READ_ACTIONS.some((a) => a.startsWith('audit.'))).toBe(false);
  });
});

describe('working hours', () => {
  it('are 6:00 to 20:00 on weekdays', () => {
    expect(isAfterHours({ hour: 5, weekday: 2 })).toBe(true);
    expect(isAfterHours({ hour: 6, weekday: 2 })).toBe(false);
    expect(isAfterHours({ hour: 19, weekday: 5 })).toBe(false);
    expect(isAfterHours({ hour: 20, weekday: 5 })).toBe(true);
    expect(isAfterHours({ hour: 12, weekday: 6 })).toBe(true);
    expect(isAfterHours({ hour: 12, weekday: 0 })).toBe(true);
  });
});

describe('report ranges', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  it('accept a year and refuse a date that does not exist, an inverted range and more than six years', () => {
    expect(patientAccessQuerySchema.safeParse({ patientId: id, from: '2025-12-04', to: '2026-12-03' }).success).toBe(true);
    const problem = (from: string, to: string) =>
      patientAccessQuerySchema.safeParse({ patientId: id, from, to }).error?.issues[0]?.message;
    expect(problem('2026-02-29', '2026-03-01')).toBe('Use a real date as YYYY-MM-DD.');
    expect(problem('2026-03-02', '2026-03-01')).toBe('The start must not be after the end.');
    expect(problem('2019-01-01', '2026-12-03')).toBe('Choose at most 2192 days.');
  });

  it('shift days across months, years and leap days', () => {
    expect(shiftIsoDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftIsoDay('2024-03-01', -1)).toBe('2024-02-29');
    expect(shiftIsoDay('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftIsoDay('2026-12-03', -29)).toBe('2026-11-04');
  });
});

describe('the patients of a report row', () => {
  it('names every patient up to four, hidden ones as "Not shown"', () => {
    expect(auditRowPatients([])).toEqual({ first: '', rest: [] });
    expect(auditRowPatients(['A', null, 'C', 'D'])).toEqual({ first: 'A, Not shown, C, D', rest: [] });
  });
  it('folds the rest past three, keeping every name in order', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ minLength: 1 }), { nil: null }), { minLength: 5, maxLength: 120 }), (names) => {
        const { first, rest } = auditRowPatients(names);
        const words = names.map((n) => n ?? 'Not shown');
        expect(rest).toEqual(words.slice(3));
        expect(first).toBe(words.slice(0, 3).join(', '));
      }),
    );
  });
});
