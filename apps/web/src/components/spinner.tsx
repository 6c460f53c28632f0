import { useState } from 'react';
import styles from './spinner.module.css';

/** How long after the page opened a spinner may first show (decision 0046); index.html's boot spinner waits as long. */
export const SPIN_AFTER_MS = 1000;

/**
 * What is left of that second. A spinner drawn while the page starts waits for the rest of it, so the loaders that
 * follow one another on a first load (boot, shell, screen) show none when the screen is ready in time; any later
 * spinner shows at once. Every turning frame is drawn by the phone while it is busiest starting the page.
 */
export function spinDelayMs(now: number = performance.now()): number {
  return Math.max(0, Math.round(SPIN_AFTER_MS - now));
}

/** A decorative spinner; pair it with visible or announced text. */
export function Spinner({ size = 'small' }: { size?: 'small' | 'large' }) {
  // Read once: a delay changed by a later render would make a turning spinner jump.
  const [delay] = useState(spinDelayMs);
  return (
    <span
      className={`${styles.spinner} ${size === 'large' ? styles.large : ''}`}
      style={delay > 0 ? { animationDelay: `${delay}ms` } : undefined}
      aria-hidden="true"
    />
  );
}
