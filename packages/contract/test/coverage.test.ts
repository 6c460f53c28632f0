import { describe, expect, it } from 'vitest';
import {
  accessToItem,
  COVERAGE_MAX_DAYS,
  COVERAGE_MESSAGES,
  coverageFormSchema,
  coverageInstantsOf,
  coverageLastDayText,
  coverageProblem,
  maySignFor,
  type SigningFacts,
} from '../src/index.ts';

const NOW = new Date('2026-11-27T15:00:00.000Z');
const at = (offsetHours: number) => new Date(NOW.getTime() + offsetHours * 3_600_000).toISOString();
const restricted = (covers: SigningFacts['covers'] = []): SigningFacts => ({ ownOrCoveringPracticeIds: ['o1'], covers });
const item = { practiceId: 'o1', prescriberId: 'morgan' };

describe('maySignFor', () => {
  it('lets any prescriber sign where the practice does not restrict signing', () => {
    expect(maySignFor({ ownOrCoveringPracticeIds: [], covers: [] }, 'second', item, NOW)).toBe(true);
    expect(maySignFor(null, 'second', item, NOW)).toBe(true);
    expect(maySignFor(restricted(), 'second', { ...item, practiceId: 'o2' }, NOW)).toBe(true);
  });

  it('keeps a restricting practice’s request to its prescriber and whoever covers for them now', () => {
    expect(maySignFor(restricted(), 'morgan', item, NOW)).toBe(true);
    expect(maySignFor(restricted(), 'second', item, NOW)).toBe(false);
    const cover = { practiceId: 'o1', prescriberId: 'morgan', startsAt: at(-1), endsAt: at(1) };
    expect(maySignFor(restricted([cover]), 'second', item, NOW)).toBe(true);
    // Not yet, no longer, another practice, another prescriber.
    expect(maySignFor(restricted([{ ...cover, startsAt: at(1), endsAt: at(5) }]), 'second', item, NOW)).toBe(false);
    expect(maySignFor(restricted([{ ...cover, endsAt: NOW.toISOString() }]), 'second', item, NOW)).toBe(false);
    expect(maySignFor(restricted([{ ...cover, practiceId: 'o2' }]), 'second', item, NOW)).toBe(false);
    expect(maySignFor(restricted([{ ...cover, prescriberId: 'kim' }]), 'second', item, NOW)).toBe(false);
  });
});

describe('accessToItem', () => {
  const user = { signing: restricted(), details: { mdStaffId: 'second' } };
  it('turns a prescriber’s signature into preparing where the practice keeps the item to another prescriber', () => {
    expect(accessToItem('sign', user, item, NOW)).toBe('prepare');
    expect(accessToItem('sign', user, { ...item, prescriberId: 'second' }, NOW)).toBe('sign');
    // Other access is what it was; an item without its practice is not judged.
    expect(accessToItem('prepare', user, item, NOW)).toBe('prepare');
    expect(accessToItem('readOnly', user, item, NOW)).toBe('readOnly');
    expect(accessToItem('sign', user, { prescriberId: 'morgan' }, NOW)).toBe('sign');
  });
});

describe('coverageProblem', () => {
  const base = { coveringPrescriberId: 'second', coveredPrescriberId: 'morgan', startsAt: at(0), endsAt: at(24) };
  it('accepts a coverage from now to a day ahead, and refuses what cannot be', () => {
    expect(coverageProblem(base, NOW)).toBeNull();
    expect(coverageProblem({ ...base, coveringPrescriberId: 'morgan' }, NOW)?.message).toBe(COVERAGE_MESSAGES.self);
    expect(coverageProblem({ ...base, endsAt: at(0) }, NOW)?.message).toBe(COVERAGE_MESSAGES.endsBeforeStart);
    expect(coverageProblem({ ...base, startsAt: at(-48), endsAt: at(-1) }, NOW)?.message).toBe(COVERAGE_MESSAGES.endsInPast);
    expect(coverageProblem({ ...base, endsAt: at(24 * COVERAGE_MAX_DAYS) }, NOW)).toBeNull();
    expect(coverageProblem({ ...base, endsAt: at(24 * COVERAGE_MAX_DAYS + 1) }, NOW)?.message).toBe(COVERAGE_MESSAGES.tooLong);
  });
});

describe('coverage days', () => {
  it('run from the start of the first day to the end of the last, in the reader’s calendar', () => {
    const instants = coverageInstantsOf('2026-12-01', '2026-12-05');
    expect(instants).toEqual({
      startsAt: new Date(2026, 11, 1).toISOString(),
      endsAt: new Date(2026, 11, 6).toISOString(),
    });
    expect(coverageLastDayText(instants?.endsAt ?? '')).toBe('12/05/2026');
    expect(coverageInstantsOf('2026-02-30', '2026-03-01')).toBeNull();
  });

  it('the form checks the days with the server’s rule', () => {
    const form = {
      coveringPrescriberId: '00000000-0000-4000-8000-0000000000a1',
      coveredPrescriberId: '00000000-0000-4000-8000-0000000000a2',
    };
    const today = new Date();
    const iso = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
    expect(coverageFormSchema.safeParse({ ...form, firstDay: iso(today), lastDay: iso(today) }).success).toBe(true);
    const backwards = coverageFormSchema.safeParse({ ...form, firstDay: iso(tomorrow), lastDay: iso(today) });
    expect(backwards.error?.issues).toEqual([
      expect.objectContaining({ path: ['lastDay'], message: COVERAGE_MESSAGES.endsBeforeStart }),
    ]);
    const empty = coverageFormSchema.safeParse({ ...form, firstDay: iso(today), lastDay: '' });
    expect(empty.error?.issues.map((i) => i.message)).toEqual(['Enter the last day.']);
  });
});
