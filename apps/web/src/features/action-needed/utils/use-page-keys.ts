import { useEffect, useRef } from 'react';
import { type QueueCommand, queueCommandOf } from './queue-keys.ts';

/**
 * The list's keys wherever focus is on the page (as in mail clients), but never in a field, with a modifier held
 * or while a dialog is open. `handle` answers whether it used the key (then the browser's own use is prevented).
 */
export function usePageKeys(handle: (command: QueueCommand, event: KeyboardEvent) => boolean): void {
  const current = useRef(handle);
  current.current = handle;
  useEffect(() => {
    const listen = (event: KeyboardEvent) => {
      if (document.querySelector('dialog[open]')) return;
      const command = queueCommandOf(event);
      if (command && current.current(command, event)) event.preventDefault();
    };
    document.addEventListener('keydown', listen);
    return () => document.removeEventListener('keydown', listen);
  }, []);
}

/** The arrow keys move in a list only once focus is in it: elsewhere they keep scrolling the page. */
export const isArrowOutside = (event: KeyboardEvent, list: Element | null): boolean =>
  event.key.startsWith('Arrow') && !(event.target instanceof Node && list?.contains(event.target));
