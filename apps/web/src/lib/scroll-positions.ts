/**
 * Where React Router's ScrollRestoration keeps the scroll place of each history entry across a reload (its
 * `storageKey`, named here so the app reads what it writes): `{ [location.key]: scrollY }` in sessionStorage,
 * written when the page is left. Places of in-app navigations stay in the router's memory.
 */
export const SCROLL_POSITIONS_KEY = 'hcp.scroll-positions';

let screensShown = 0;

/** Called once per shown screen (app/route-focus.tsx): after the first, a visit's places live in memory. */
export function noteScreenShown() {
  screensShown += 1;
}

function savedPlaceBeforeReload(locationKey: string): boolean {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SCROLL_POSITIONS_KEY) ?? '{}') as Record<string, unknown>;
    const place = saved[locationKey];
    return typeof place === 'number' && place > 0;
  } catch {
    return false;
  }
}

/**
 * Whether a list must draw in the same render as its screen (issue 21): when a scroll place may wait for it
 * (Back to the list with its answer at hand, or a reload deep in it), or the place is restored on a page too
 * short to hold it. Otherwise the screen draws first and the list a moment later, in slices that leave the
 * phone free to answer taps: the first screen after sign-in has its answer at hand (the shell asked for it)
 * but nothing to restore.
 */
export function listMustDrawAtOnce({ atHand, locationKey }: { atHand: boolean; locationKey: string }): boolean {
  if (!atHand) return false;
  return screensShown > 0 || savedPlaceBeforeReload(locationKey);
}
