/**
 * The one focus rule of the web app (issue 47): after every action focus goes to where the user goes on from — the
 * next item of a list (or the list's heading when none is left), the control that opened a dialog when it closes,
 * the new or changed row after a save — and never stays on <body>, where a keyboard or screen-reader user would
 * start again from the top of the page.
 *
 * `focusWhenReady(find)` asks for a place that may not be drawn yet (the list refetches after a decision, a saved
 * row appears when its query answers): it tries once React has committed, then again on every change of the page
 * until `find` answers a connected element, the user moves focus themselves, or the `fallback` is due. Whatever
 * the user focused meanwhile wins: a later request, or a click, cancels an earlier one.
 */

/**
 * The attribute that names an element by what it stands for (a prescription's id on its row's link), so a place
 * can be asked for from outside the list that draws it (an undo brings items back in whichever list is shown).
 */
export const FOCUS_KEY = 'data-focus-key';

/** The first element marked with `key` (FOCUS_KEY), if any is drawn. */
export function byFocusKey(key: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[${FOCUS_KEY}="${CSS.escape(key)}"]`);
}

/** The screen's own heading (`#main h1`, made focusable by the page), else the main region. */
export function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('#main h1') ?? document.getElementById('main');
}

/**
 * The bottom of the window the toasts take (sonner, bottom centre): an element focused there would be hidden under
 * a toast (WCAG 2.2 2.4.11, Focus Not Obscured). The same space is kept by `scroll-padding-bottom` in the global
 * styles for the browser's own scrolling on Tab.
 */
const TOAST_SPACE_PX = 112;

/**
 * Focus without scrolling the page when the target is already in view, above the toasts; else scrolled to the
 * middle of the window. A heading needs tabindex=-1.
 */
export function focusElement(element: HTMLElement): void {
  if (!element.matches('a[href], button, input, select, textarea, [tabindex]')) element.setAttribute('tabindex', '-1');
  element.focus({ preventScroll: true });
  const box = element.getBoundingClientRect();
  if (box.bottom > window.innerHeight - TOAST_SPACE_PX || box.top < 0) element.scrollIntoView?.({ block: 'center' });
}

/** True when focus is nowhere useful: on <body>, or on an element that has left the page. */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

let pending: (() => void) | null = null;

/** How long a request may still wait for its place once the fallback holds focus: about two seconds of frames. */
const LINGER_FRAMES = 120;

/** What the user does themselves ends a request: their key or pointer goes where they meant. */
const USER_INPUT = ['keydown', 'pointerdown'] as const;

/**
 * Moves focus to what `find` answers as soon as it is on the page and can take focus (an element behind a modal
 * dialog cannot: the request waits for the dialog to go). `fallback` (default: the page's heading) holds focus
 * meanwhile if focus is lost once the page has settled — `after` has resolved (the refetch the place depends on)
 * and nothing changed for two frames — while the request still waits for its place. A new request or the user's
 * next key or pointer press ends it; a `weak` one is dropped when another is pending. Answers a cancel function.
 */
export function focusWhenReady(
  find: () => HTMLElement | null | undefined,
  {
    fallback = pageHeading,
    after,
    weak = false,
  }: { fallback?: () => HTMLElement | null; after?: Promise<unknown>; weak?: boolean } = {},
): () => void {
  // A weak request (a dialog's default return to its opener) gives way to a feature's own, pending one.
  if (weak && pending) return () => undefined;
  pending?.();
  let done = false;
  let waiting = after !== undefined;
  let quiet: number | undefined;
  const observer = new MutationObserver(() => attempt());
  const stop = () => {
    done = true;
    observer.disconnect();
    if (quiet !== undefined) cancelAnimationFrame(quiet);
    for (const type of USER_INPUT) document.removeEventListener(type, stop, true);
    if (pending === stop) pending = null;
  };
  const took = (element: HTMLElement | null | undefined) => {
    if (!element?.isConnected) return false;
    focusElement(element);
    return document.activeElement === element;
  };
  // After the fallback took focus, the place may still come (a lazy screen); not for ever: a place that turns up
  // much later (a live update) must not pull focus away from where the user is reading.
  let lingering = false;
  const lingerThenStop = () => {
    if (lingering) return;
    lingering = true;
    let frames = LINGER_FRAMES;
    const tick = () => {
      if (done) return;
      if (frames-- <= 0) return stop();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  const attempt = () => {
    if (done) return;
    if (took(find())) return stop();
    if (waiting) return;
    // Nothing yet: wait for the page to settle (no change for two frames), then the fallback.
    if (quiet !== undefined) cancelAnimationFrame(quiet);
    quiet = requestAnimationFrame(() => {
      quiet = requestAnimationFrame(() => {
        quiet = undefined;
        if (done) return;
        if (took(find())) return stop();
        // Lost meanwhile: the fallback holds focus, and the request goes on waiting for the place itself (a lazy
        // screen still loading) until the user's next key or pointer press. Focus still somewhere real: it waits.
        if (focusIsLost() && took(fallback())) lingerThenStop();
      });
    });
  };
  pending = stop;
  observer.observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['hidden', 'open', 'aria-pressed', 'aria-current'],
  });
  for (const type of USER_INPUT) document.addEventListener(type, stop, true);
  // Settled either way (a failed refetch still settles the page); then() with both, so a rejection is not left unhandled.
  const settled = () => {
    waiting = false;
    attempt();
  };
  after?.then(settled, settled);
  queueMicrotask(attempt);
  return stop;
}

/**
 * Navigation state that names where focus goes when the new screen arrives, nearest first (RouteFocus honours it
 * before the screen's heading). A decision taken on an item's own page returns to its list on the item after it.
 */
export interface FocusOnArrival {
  focusKeys?: string[];
}

/** The places after the item last opened from a list, nearest first (at most a screenful or two of them). */
let placesAfterLastOpened: string[] = [];
const PLACES_KEPT = 20;

/**
 * Remembers, when an item of a list is opened (a click, or Enter on its link: both are clicks), the items after it
 * in the order the list showed them. Installed once on the document by RouteFocus, so every list of marked items
 * (FOCUS_KEY) takes part without wiring of its own.
 */
export function rememberPlacesAfterOpened(event: Event): void {
  const target = event.target instanceof Element ? event.target : null;
  const opened = target?.closest<HTMLElement>(`#main a[${FOCUS_KEY}]`);
  if (!opened) return;
  const key = opened.getAttribute(FOCUS_KEY);
  const links = [...document.querySelectorAll<HTMLElement>(`#main a[${FOCUS_KEY}]`)];
  const after = links.slice(links.indexOf(opened) + 1).map((link) => link.getAttribute(FOCUS_KEY) ?? '');
  placesAfterLastOpened = [...new Set(after)].filter((k) => k !== '' && k !== key).slice(0, PLACES_KEPT);
}

/** The places after the item last opened (see rememberPlacesAfterOpened); empty when none was. */
export function placesAfterOpened(): string[] {
  return placesAfterLastOpened;
}

/** The first of `keys` drawn on the page. */
export function firstPlaceOf(keys: readonly string[]): HTMLElement | null {
  for (const key of keys) {
    const element = byFocusKey(key);
    if (element) return element;
  }
  return null;
}
