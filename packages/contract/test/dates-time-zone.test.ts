/**
 * API date-times are UTC instants (issue 21): read in New York they show New York's clock and day, while
 * bare dates (birth dates) stay the calendar day they are. Node honours a TZ change at run time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatApiDate,
  formatApiDateTime,
  formatDateTime,
  formatMonthDayTime,
  formatPrescribedDate,
  formatTime,
  parseApiInstant,
  rxListDefaultWindow,
  rxListQueryFor,
  utcIsoDate,
} from '../src/index.ts';

// The contract has no Node types (it runs in browsers too); the test reaches Node's environment directly.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const zoneBefore = env.TZ;
beforeAll(() => {
  env.TZ = 'America/New_York';
});
afterAll(() => {
  if (zoneBefore === undefined) delete env.TZ;
  else env.TZ = zoneBefore;
});

describe('API date-times in the reader’s zone', () => {
  it('runs in New York (the test would prove nothing in UTC)', () => {
    expect(new Date(Date.UTC(2026, 10, 24, 16, 41)).getHours()).toBe(11);
  });

  it('reads the UTC instant, with Z, an offset, an ISO T or no zone at all (taken as UTC)', () => {
    const expected = Date.UTC(2026, 10, 24, 16, 41, 0);
    expect(parseApiInstant('2026-11-24 16:41:00Z')?.getTime()).toBe(expected);
    expect(parseApiInstant('2026-11-24T16:41:00.000Z')?.getTime()).toBe(expected);
    expect(parseApiInstant('2026-11-24 11:41:00-05:00')?.getTime()).toBe(expected);
    expect(parseApiInstant('2026-11-24 16:41:00')?.getTime()).toBe(expected);
    expect(parseApiInstant('2026-11-24 16:41:00+0000')?.getTime()).toBe(expected);
    expect(parseApiInstant('2026-11-24 24:41:00Z')).toBeNull();
    expect(parseApiInstant('24/11/2026')).toBeNull();
  });

  it('shows one time for one instant, everywhere: 4:41 pm UTC is 11:41 am in New York', () => {
    const now = new Date(Date.UTC(2026, 10, 24, 20, 0));
    expect(formatPrescribedDate('2026-11-24 16:41:00Z', now)).toBe('Today 11:41 am');
    expect(formatDateTime('2026-11-24 16:41:00Z')).toBe('11/24/2026 11:41 am');
    expect(formatDateTime('2026-11-24T16:41:00.000Z')).toBe('11/24/2026 11:41 am');
    expect(formatTime('2026-11-24T16:41:00.000Z')).toBe('11:41 am');
    expect(formatMonthDayTime('2026-11-24 16:41:00Z')).toBe('11/24, 11:41 am');
  });

  it('a late-evening prescription belongs to the New York day it was written on, not the next UTC day', () => {
    const now = new Date(Date.UTC(2026, 10, 25, 2, 0)); // 9 pm on 11/24 in New York
    expect(formatPrescribedDate('2026-11-25 00:30:00Z', now)).toBe('Today 7:30 pm');
    expect(formatApiDate('2026-11-25 00:30:00Z')).toBe('11/24/2026');
  });

  it('keeps bare dates (a birth date) on their calendar day', () => {
    expect(formatApiDate('1970-04-05')).toBe('04/05/1970');
  });

  it('writes instants as UTC with their zone, and names UTC days', () => {
    const instant = new Date(Date.UTC(2026, 10, 25, 0, 30, 5));
    expect(formatApiDateTime(instant)).toBe('2026-11-25 00:30:05Z');
    expect(utcIsoDate(instant)).toBe('2026-11-25');
  });
});

describe('the Rx list window (spec §9: the last 24 hours)', () => {
  it('ends now and starts 24 hours before', () => {
    const now = new Date(Date.UTC(2026, 10, 28, 3, 30));
    const { from, to } = rxListDefaultWindow(now);
    expect(to.getTime()).toBe(now.getTime());
    expect(now.getTime() - from.getTime()).toBe(24 * 60 * 60 * 1000);
  });

  it('asks for the UTC days of the window, not the reader’s: 10:30 PM in New York is already the next UTC day', () => {
    const now = new Date(Date.UTC(2026, 10, 28, 3, 30));
    expect(now.getDate()).toBe(27);
    const { from, to } = rxListDefaultWindow(now);
    expect(rxListQueryFor(from, to, 'none')).toEqual({
      startdate: '2026-11-27',
      enddate: '2026-11-28',
      selectedFilter: 'none',
    });
  });

  it('names the query in the URL’s order, so the request sent early and the screen’s ask for the same URL', () => {
    const { from, to } = rxListDefaultWindow(new Date(Date.UTC(2026, 10, 28, 12)));
    expect(Object.keys(rxListQueryFor(from, to, 'none'))).toEqual(['startdate', 'enddate', 'selectedFilter']);
  });
});
