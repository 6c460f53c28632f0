import { describe, expect, it } from 'vitest';
import { listMustDrawAtOnce, noteScreenShown, SCROLL_POSITIONS_KEY } from './scroll-positions.ts';

// One module instance for the file: the cases run in order, before and after the first screen is noted.
describe('listMustDrawAtOnce (a scroll place waiting for a list)', () => {
  it('on the first screen of a visit: only when a place was saved for this entry before a reload', () => {
    sessionStorage.removeItem(SCROLL_POSITIONS_KEY);
    expect(listMustDrawAtOnce({ atHand: true, locationKey: 'k1' })).toBe(false);
    sessionStorage.setItem(SCROLL_POSITIONS_KEY, JSON.stringify({ k1: 1200, k2: 0 }));
    expect(listMustDrawAtOnce({ atHand: true, locationKey: 'k1' })).toBe(true);
    expect(listMustDrawAtOnce({ atHand: true, locationKey: 'k2' })).toBe(false);
    sessionStorage.setItem(SCROLL_POSITIONS_KEY, '{not json');
    expect(listMustDrawAtOnce({ atHand: true, locationKey: 'k1' })).toBe(false);
  });

  it('never when the answer is still to come (nothing could be restored on it yet)', () => {
    sessionStorage.setItem(SCROLL_POSITIONS_KEY, JSON.stringify({ k1: 1200 }));
    expect(listMustDrawAtOnce({ atHand: false, locationKey: 'k1' })).toBe(false);
  });

  it('after the first screen: whenever the answer is at hand (Back to the list)', () => {
    sessionStorage.removeItem(SCROLL_POSITIONS_KEY);
    noteScreenShown();
    expect(listMustDrawAtOnce({ atHand: true, locationKey: 'k9' })).toBe(true);
    expect(listMustDrawAtOnce({ atHand: false, locationKey: 'k9' })).toBe(false);
  });
});
