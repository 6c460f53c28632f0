import { describe, expect, it } from 'vitest';
import { buildMenu } from './nav-tabs.tsx';

const base = {
  actionNeededCount: 3,
  actionNeededLoading: false,
  newCommentsCount: 0,
  showManageComms: false,
  showPrescribe: false,
};

describe('buildMenu (spec §2 tabs)', () => {
  it('always has Action Needed with its count and All Patients', () => {
    expect(buildMenu(base).map((i) => [i.name, i.count])).toEqual([
      ['actionNeeded', 3],
      ['patients', undefined],
    ]);
  });
  it('shows New Comments only with a count above zero', () => {
    expect(buildMenu({ ...base, newCommentsCount: 2 }).map((i) => i.name)).toContain('newComments');
    expect(buildMenu({ ...base, newCommentsCount: 0 }).map((i) => i.name)).not.toContain('newComments');
  });
  it('offers the New Prescriptions list to the practice’s people, beside All Patients', () => {
    expect(buildMenu({ ...base, showRxList: true, newCommentsCount: 1 }).map((i) => [i.name, i.href])).toEqual([
      ['actionNeeded', '/action-needed'],
      ['patients', '/patient-search'],
      ['rxList', '/rx-list'],
      ['newComments', '/new-comments'],
    ]);
    expect(buildMenu(base).map((i) => i.name)).not.toContain('rxList');
  });
  it('adds Manage Communications and Prescribe Rx (with the New badge) when permitted', () => {
    const items = buildMenu({ ...base, showManageComms: true, showPrescribe: true });
    expect(items.map((i) => i.displayName)).toEqual(['Action Needed', 'All Patients', 'Manage Communications', 'Prescribe Rx']);
    expect(items.at(-1)?.badge).toBe('New');
  });
});
