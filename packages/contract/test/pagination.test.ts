import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidPage, offsetForPage, PAGE_SIZE, pageItems, rangeLabel, totalPages } from '../src/index.ts';

describe('pagination', () => {
  it('page size is 25', () => expect(PAGE_SIZE).toBe(25));

  it('shows every page up to five pages', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageItems(1, 0)).toEqual([]);
  });

  it('shows first, last and current ±2 with ellipses beyond five pages', () => {
    expect(pageItems(10, 20)).toEqual([1, 'ellipsis-start', 8, 9, 10, 11, 12, 'ellipsis-end', 20]);
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 'ellipsis-end', 20]);
    expect(pageItems(20, 20)).toEqual([1, 'ellipsis-start', 18, 19, 20]);
    expect(pageItems(4, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    // A single skipped page is an ellipsis too: only first, last and current ±2 are numbers (spec §2).
    expect(pageItems(5, 10)).toEqual([1, 'ellipsis-start', 3, 4, 5, 6, 7, 'ellipsis-end', 10]);
    expect(pageItems(1, 6)).toEqual([1, 2, 3, 'ellipsis-end', 6]);
  });

  it('always contains first, last and current ±2, in order, without repeats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 6, max: 500 }), fc.integer({ min: 1, max: 500 }), (pages, raw) => {
        const current = ((raw - 1) % pages) + 1;
        const items = pageItems(current, pages);
        const numbers = items.filter((i): i is number => typeof i === 'number');
        expect(numbers[0]).toBe(1);
        expect(numbers.at(-1)).toBe(pages);
        for (let p = Math.max(1, current - 2); p <= Math.min(pages, current + 2); p += 1) expect(numbers).toContain(p);
        for (let i = 1; i < numbers.length; i += 1) expect(numbers[i]).toBeGreaterThan(numbers[i - 1] as number);
        // Nothing else is a number, and every gap between two numbers is exactly one ellipsis.
        for (const n of numbers) expect(n === 1 || n === pages || Math.abs(n - current) <= 2).toBe(true);
        items.forEach((item, i) => {
          const next = items[i + 1];
          if (typeof item === 'number' && typeof next === 'number') expect(next).toBe(item + 1);
          if (typeof item === 'number' && typeof next === 'string') expect(items[i + 2]).toBeGreaterThan(item + 1);
        });
        expect(items.length).toBeLessThanOrEqual(9);
      }),
    );
  });

  it('a page is valid only within 1..total pages', () => {
    expect(isValidPage(1, 3)).toBe(true);
    expect(isValidPage(3, 3)).toBe(true);
    expect(isValidPage(0, 3)).toBe(false);
    expect(isValidPage(4, 3)).toBe(false);
    expect(isValidPage(1.5, 3)).toBe(false);
    expect(isValidPage(1, 0)).toBe(false);
  });

  it('offset comes from page and limit', () => {
    expect(offsetForPage(1, 25)).toBe(0);
    expect(offsetForPage(3, 25)).toBe(50);
    expect(offsetForPage(0, 25)).toBe(0);
  });

  it("reads 'Showing X-Y of total'", () => {
    expect(rangeLabel(1, 25, 60)).toBe('Showing 1-25 of 60');
    expect(rangeLabel(3, 25, 60)).toBe('Showing 51-60 of 60');
    expect(rangeLabel(1, 25, 0)).toBe('Showing 0-0 of 0');
    expect(totalPages(60, 25)).toBe(3);
    expect(totalPages(0, 25)).toBe(0);
  });
});
