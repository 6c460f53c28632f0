import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPIN_AFTER_MS, Spinner, spinDelayMs } from './spinner.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Spinner (decision 0046)', () => {
  it('waits for what is left of the page’s first second, and not at all after it', () => {
    expect(SPIN_AFTER_MS).toBe(1000);
    expect(spinDelayMs(0)).toBe(1000);
    expect(spinDelayMs(300.4)).toBe(700);
    expect(spinDelayMs(999.9)).toBe(0);
    expect(spinDelayMs(5000)).toBe(0);
  });

  it('drawn while the page starts, shows only once that second has passed', () => {
    vi.spyOn(performance, 'now').mockReturnValue(250);
    const { container } = render(<Spinner size="large" />);
    const spinner = container.querySelector('span');
    expect(spinner?.style.animationDelay).toBe('750ms');
    expect(spinner?.getAttribute('aria-hidden')).toBe('true');
  });

  it('keeps its delay when drawn again, so a turning spinner does not jump', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(250);
    const { container, rerender } = render(<Spinner />);
    now.mockReturnValue(900);
    rerender(<Spinner />);
    expect(container.querySelector('span')?.style.animationDelay).toBe('750ms');
  });

  it('drawn later (a list reloading), shows at once', () => {
    vi.spyOn(performance, 'now').mockReturnValue(60_000);
    const { container } = render(<Spinner />);
    expect(container.querySelector('span')?.style.animationDelay).toBe('');
  });
});
