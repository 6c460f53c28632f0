import { describe, expect, it } from 'vitest';
import { alternativeIndexOf, isTypingTarget, queueCommandOf } from './queue-keys.ts';

const press = (
  key: string,
  target: EventTarget | null = document.body,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {},
) => queueCommandOf({ key, target, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('the queue keys', () => {
  it('maps each key to its command', () => {
    expect(['j', 'ArrowDown', 'k', 'ArrowUp', 'Home', 'End', 'x', 'o', 'Enter', '/', '?'].map((k) => press(k))).toEqual([
      'next',
      'next',
      'previous',
      'previous',
      'first',
      'last',
      'toggle',
      'open',
      'open',
      'search',
      'help',
    ]);
    expect(['a', 'd', 'p', 'u', 'A'].map((k) => press(k))).toEqual(['authorize', 'deny', 'postpone', 'undo', 'selectAll']);
    expect(['e', '1', '9'].map((k) => press(k))).toEqual(['decideHere', 'alternative', 'alternative']);
    expect(['1', '9', '0', 'x'].map(alternativeIndexOf)).toEqual([0, 8, null, null]);
    expect(press('q')).toBeNull();
    expect(press('0')).toBeNull();
  });

  it('never fires while typing, with a modifier held, or on Enter over a link or button', () => {
    const text = document.createElement('input');
    const area = document.createElement('textarea');
    const select = document.createElement('select');
    for (const field of [text, area, select]) expect(press('j', field)).toBeNull();
    expect(isTypingTarget(document.body)).toBe(false);
    const box = document.createElement('input');
    box.type = 'checkbox';
    expect(press('j', box)).toBe('next');
    expect(press('x', box)).toBe('toggle');
    expect(press('j', document.body, { ctrlKey: true })).toBeNull();
    expect(press('k', document.body, { metaKey: true })).toBeNull();
    expect(press('o', document.body, { altKey: true })).toBeNull();
    expect(press('Enter', document.createElement('a'))).toBeNull();
    expect(press('Enter', document.createElement('button'))).toBeNull();
    expect(press('Enter', box)).toBe('open');
  });
});
