import { useEffect } from 'react';
import { ScrollRestoration, useLocation } from 'react-router';
import { type FocusOnArrival, firstPlaceOf, focusWhenReady, rememberPlacesAfterOpened } from '../lib/focus.ts';
import { noteScreenShown, SCROLL_POSITIONS_KEY } from '../lib/scroll-positions.ts';

/** The path shown before this one, kept outside React so it survives the switch between the two layouts. */
let shownPath: string | undefined;

/** How long to wait for a lazily loaded screen to draw its heading before giving up on moving focus. */
const HEADING_WAIT_MS = 5000;

function focusHeading(main: HTMLElement): boolean {
  const target = main.querySelector<HTMLElement>('h1') ?? null;
  if (!target) return false;
  // The scroll position is ScrollRestoration's business (top for a new page, the old place on Back).
  target.focus({ preventScroll: true });
  return true;
}

/**
 * What a screen reader and a keyboard user need after a client-side navigation (issue 21): a new screen
 * starts at its top, not at the list's scroll position, and focus moves to its heading so the next Tab
 * starts there and the screen reader reads where they are. The first page of a visit keeps the browser's
 * own start (the skip link first). Back and Forward restore the old scroll position.
 */
export function RouteFocus() {
  const { pathname, state } = useLocation();
  const focusKeys = (state as FocusOnArrival | null)?.focusKeys;
  const arrivalKeys = Array.isArray(focusKeys) ? focusKeys.filter((k): k is string => typeof k === 'string') : [];
  // Which items follow the one a list opens: a decision on the item's page comes back to the next (issue 47).
  useEffect(() => {
    document.addEventListener('click', rememberPlacesAfterOpened, true);
    return () => document.removeEventListener('click', rememberPlacesAfterOpened, true);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of screen moves focus; the keys ride along with it.
  useEffect(() => {
    const previous = shownPath;
    shownPath = pathname;
    noteScreenShown();
    if (previous === undefined || previous === pathname) return;
    // The navigation named where the user goes on from (the item after the one just decided): there, once drawn;
    // the heading meanwhile if focus is lost, and when none of them is left. Ended by the user's next key.
    if (arrivalKeys.length > 0) {
      focusWhenReady(() => firstPlaceOf(arrivalKeys));
      return;
    }
    const main = document.getElementById('main');
    if (!main || focusHeading(main)) return;
    // The screen is still loading (a lazy route or a query behind a loader): wait for its heading.
    const observer = new MutationObserver(() => {
      if (focusHeading(main)) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = window.setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [pathname]);
  return <ScrollRestoration storageKey={SCROLL_POSITIONS_KEY} />;
}
