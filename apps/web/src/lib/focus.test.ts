/** The one focus rule (lib/focus.ts, issue 47): decided by the page's changes and events, never by a clock. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byFocusKey, FOCUS_KEY, focusWhenReady } from './focus.ts';

function page() {
  document.body.innerHTML = '<main id="main"><h1>Action Needed</h1><ul id="list"></ul></main>';
  return document.getElementById('list') as HTMLUListElement;
}
const row = (key: string) => {
  const li = document.createElement('li');
  li.innerHTML = `<a href="#${key}" ${FOCUS_KEY}="${key}">${key}</a>`;
  return li;
};
afterEach(() => {
  document.body.innerHTML = '';
});

describe('focusWhenReady', () => {
  it('focuses the place once it is drawn, not before', async () => {
    const list = page();
    focusWhenReady(() => byFocusKey('b'));
    await Promise.resolve();
    expect(document.activeElement).toBe(document.body);
    list.append(row('a'), row('b'));
    await vi.waitFor(() => expect(document.activeElement).toBe(byFocusKey('b')));
  });

  it('gives focus to the page heading when the page settled with no such place and focus was lost', async () => {
    page();
    focusWhenReady(() => byFocusKey('gone'));
    await vi.waitFor(() => expect(document.activeElement).toBe(document.querySelector('h1')));
    expect(document.querySelector('h1')?.getAttribute('tabindex')).toBe('-1');
  });

  it('waits for `after` (the refetch the place depends on) before falling back', async () => {
    const list = page();
    const answers: (() => void)[] = [];
    const refetched = new Promise<void>((resolve) => answers.push(resolve));
    focusWhenReady(() => byFocusKey('late'), { after: refetched });
    // Frames pass with nothing to focus: no fallback while the refetch is out.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(document.activeElement).toBe(document.body);
    list.append(row('late'));
    for (const answer of answers) answer();
    await vi.waitFor(() => expect(document.activeElement).toBe(byFocusKey('late')));
  });

  it('ends when the user presses a key, and a weak request gives way to a pending one', async () => {
    const list = page();
    focusWhenReady(() => byFocusKey('x'));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'j' }));
    list.append(row('x'));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(document.activeElement).toBe(document.body);

    focusWhenReady(() => byFocusKey('next'));
    focusWhenReady(() => byFocusKey('x'), { weak: true });
    list.append(row('next'));
    await vi.waitFor(() => expect(document.activeElement).toBe(byFocusKey('next')));
  });

  it('scrolls a place under the toasts (the window’s bottom) to the middle, and leaves one in plain view still', async () => {
    const list = page();
    list.append(row('low'), row('high'));
    const low = byFocusKey('low') as HTMLElement;
    const high = byFocusKey('high') as HTMLElement;
    const at = (el: HTMLElement, top: number) => {
      el.getBoundingClientRect = () => ({ top, bottom: top + 40, left: 0, right: 100, width: 100, height: 40 }) as DOMRect;
      el.scrollIntoView = vi.fn();
    };
    at(low, window.innerHeight - 60);
    at(high, 100);
    focusWhenReady(() => low);
    await vi.waitFor(() => expect(document.activeElement).toBe(low));
    expect(low.scrollIntoView).toHaveBeenCalledWith({ block: 'center' });
    focusWhenReady(() => high);
    await vi.waitFor(() => expect(document.activeElement).toBe(high));
    expect(high.scrollIntoView).not.toHaveBeenCalled();
  });
});
