import { describe, expect, it } from 'vitest';
import { actionNeededQueryEnabled, shouldLeaveNewComments, shouldRedirectToPatientSearch } from '../src/rules/navigation.ts';

describe('actionNeededQueryEnabled', () => {
  it('is off on manage-comms paths only', () => {
    expect(actionNeededQueryEnabled('/manage-comms')).toBe(false);
    expect(actionNeededQueryEnabled('/manage-comms/practices')).toBe(false);
    expect(actionNeededQueryEnabled('/manage-commsx')).toBe(true);
    expect(actionNeededQueryEnabled('/action-needed')).toBe(true);
    expect(actionNeededQueryEnabled('/patient-search')).toBe(true);
  });
});

describe('shouldRedirectToPatientSearch', () => {
  const base = { pathname: '/action-needed', count: 0, isLoading: false, authType: null, persisted: false };
  it('redirects an empty action list', () => {
    expect(shouldRedirectToPatientSearch(base)).toBe(true);
    expect(shouldRedirectToPatientSearch({ ...base, count: -1 })).toBe(true);
  });
  it.each([
    ['there is something to do', { count: 1 }],
    ['it is still loading', { isLoading: true }],
    ['a detail screen is open', { authType: 'refillAuth', pathname: '/action-needed/x/refillAuth' }],
    ['navigation asked to stay', { persisted: true }],
    ['on another route', { pathname: '/preferences' }],
    ['on terms of use', { pathname: '/terms-of-use' }],
  ])('stays when %s', (_name, change) => {
    expect(shouldRedirectToPatientSearch({ ...base, ...change })).toBe(false);
  });
});

describe('shouldLeaveNewComments', () => {
  const base = { pathname: '/new-comments', count: 0, isLoading: false, persisted: false };
  it('leaves when the count drops to zero, unless loading, persisted or elsewhere', () => {
    expect(shouldLeaveNewComments(base)).toBe(true);
    expect(shouldLeaveNewComments({ ...base, count: 2 })).toBe(false);
    expect(shouldLeaveNewComments({ ...base, isLoading: true })).toBe(false);
    expect(shouldLeaveNewComments({ ...base, persisted: true })).toBe(false);
    expect(shouldLeaveNewComments({ ...base, pathname: '/patient-search' })).toBe(false);
  });
});

describe('shouldRedirectToPatientSearch for the provider’s users', () => {
  it('never sends them away: their Action Needed is the practice overview (decision 0020)', () => {
    const base = { pathname: '/action-needed', count: 0, isLoading: false, authType: null, persisted: false };
    expect(shouldRedirectToPatientSearch(base)).toBe(true);
    expect(shouldRedirectToPatientSearch({ ...base, showsPracticeOverview: true })).toBe(false);
  });
});
