/**
 * The queue's keys (issue 22), as a pure mapping so it can be tested without a screen. Keys never fire while
 * the user types in a field, holds a modifier (browser and screen-reader shortcuts stay theirs) or has a dialog open.
 */
export type QueueCommand =
  | 'next'
  | 'previous'
  | 'first'
  | 'last'
  | 'toggle'
  | 'selectAll'
  | 'open'
  | 'search'
  | 'help'
  | 'authorize'
  | 'deny'
  | 'postpone'
  | 'undo'
  | 'decideHere'
  | 'alternative';

const KEYS: Record<string, QueueCommand> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  Home: 'first',
  End: 'last',
  x: 'toggle',
  A: 'selectAll',
  o: 'open',
  Enter: 'open',
  '/': 'search',
  '?': 'help',
  a: 'authorize',
  d: 'deny',
  p: 'postpone',
  u: 'undo',
  e: 'decideHere',
  ...Object.fromEntries(['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => [digit, 'alternative' as const])),
};

/** Which of the offered alternatives a number key chooses (1 is the first); null for any other key. */
export const alternativeIndexOf = (key: string): number | null => (/^[1-9]$/.test(key) ? Number(key) - 1 : null);

/** What the user sees in the key list: each key with what it does, in the order they are learnt. */
export const QUEUE_KEY_HELP: readonly { keys: string[]; does: string }[] = [
  { keys: ['j', '↓'], does: 'Next item' },
  { keys: ['k', '↑'], does: 'Previous item' },
  { keys: ['Home', 'End'], does: 'First or last item' },
  { keys: ['x'], does: 'Select or clear the item (Shift+click a box selects a range)' },
  { keys: ['Shift+A'], does: 'Select every item shown (or clear them all when all are selected)' },
  { keys: ['o', 'Enter'], does: 'Open the item' },
  { keys: ['a'], does: 'Authorize the selected refills (or this one), after you confirm' },
  { keys: ['d'], does: 'Deny the selected refills (or this one), after you choose a reason' },
  { keys: ['p'], does: 'Postpone the selected refills (or this one) to a day' },
  { keys: ['e'], does: 'Decide here: the chart notes or the alternative, under the item (Ctrl+Enter sends, Escape closes)' },
  { keys: ['1–9'], does: 'Dispense the alternative with that number instead, after you confirm' },
  { keys: ['u'], does: 'Undo the last decision, until it goes to the pharmacy (10 seconds)' },
  { keys: ['/'], does: 'Filter the queue by patient or drug' },
  { keys: ['?'], does: 'Show these keys' },
];

/** The card view's keys: move between the requests, open one, undo, list the keys (selection and decisions are the queue's). */
export const CARD_KEY_HELP: readonly { keys: string[]; does: string }[] = [
  { keys: ['j', '↓'], does: 'Next request' },
  { keys: ['k', '↑'], does: 'Previous request' },
  { keys: ['Home', 'End'], does: 'First or last request' },
  { keys: ['o', 'Enter'], does: 'Open the request' },
  { keys: ['u'], does: 'Undo the last decision, until it goes to the pharmacy (10 seconds)' },
  { keys: ['?'], does: 'Show these keys' },
];

interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

const CHOICE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset']);

/** A place where a key is text: a text box, a list box or anything editable. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !CHOICE_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function queueCommandOf(event: KeyEventLike): QueueCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return null;
  const command = KEYS[event.key] ?? null;
  // Enter keeps its own meaning on links and buttons (a link opens itself; a button presses).
  if (command === 'open' && event.key === 'Enter') {
    const target = event.target;
    if (target instanceof HTMLAnchorElement || target instanceof HTMLButtonElement) return null;
  }
  return command;
}
