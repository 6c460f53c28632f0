/** Issue 50: the build's first-load budgets — what is counted, and every budget passed is named. */
import { describe, expect, it } from 'vitest';
import { budgetsPassed, describeSizes, excludedModulesFound, firstLoadSizes } from './budgets.ts';
import { chunk } from './test-chunks.ts';

const bundle = [
  chunk('assets/index.js', { isEntry: true, imports: ['assets/vendor.js'], css: ['assets/index.css'] }),
  chunk('assets/vendor.js', { css: ['assets/vendor.css'] }),
  chunk('assets/shell.js', { imports: ['assets/vendor.js', 'assets/zod.js'], css: ['assets/shell.css'] }),
  chunk('assets/zod.js', { moduleIds: ['/app/node_modules/zod/v4/classic/schemas.js', '/app/src/zod-jitless.ts'] }),
  chunk('assets/calendar.js'),
];
const SIZES: Record<string, number> = {
  'assets/index.js': 1000,
  'assets/vendor.js': 500,
  'assets/index.css': 40,
  'assets/vendor.css': 10,
  'assets/shell.js': 300,
  'assets/shell.css': 20,
  'assets/zod.js': 200,
  'assets/calendar.js': 9000,
  'assets/head-start.js': 7,
};
const table = {
  '/rx-list': { scripts: ['/assets/shell.js', '/assets/zod.js'], styles: ['/assets/shell.css'] },
};
const sizeOf = (file: string) => {
  const size = SIZES[file];
  if (size === undefined) throw new Error(`no size for ${file}`);
  return size;
};

describe('first-load sizes', () => {
  it('counts the entry with its static imports and their stylesheets, and each screen adds only what its page names', () => {
    expect(firstLoadSizes(bundle, table, sizeOf)).toEqual({
      entryScripts: 1500,
      entryStyles: 50,
      // 1500 + 50 + shell, zod and the shell's stylesheet; never the calendar, which no page names.
      screens: { '/rx-list': 2070 },
    });
  });

  it("counts the head start a page names (decision 0066) in that page's total only", () => {
    const withStart = { ...table, '/new-comments': { scripts: [], styles: [], starts: ['/assets/head-start.js'] } };
    expect(firstLoadSizes(bundle, withStart, sizeOf).screens).toEqual({ '/rx-list': 2070, '/new-comments': 1557 });
  });

  it('names every budget passed, and a budgeted route the table does not have', () => {
    const sizes = firstLoadSizes(bundle, table, sizeOf);
    expect(budgetsPassed(sizes, { entryScripts: 1500, screens: { '/rx-list': 2070 } })).toEqual([]);
    const passed = budgetsPassed(sizes, { entryScripts: 1499, screens: { '/rx-list': 2069, '/gone': 10 } });
    expect(passed).toHaveLength(3);
    expect(passed[0]).toContain("the entry's scripts are 1.5 KiB gzip");
    expect(passed[1]).toContain('/rx-list downloads 2.0 KiB gzip');
    expect(passed[2]).toContain('/gone has a budget but is not a landing route');
    expect(describeSizes(sizes)).toBe(
      'first load (gzip): entry scripts 1.5 KiB, entry styles 0.0 KiB; screens: /rx-list 2.0 KiB',
    );
  });
});

describe('modules no first load may carry', () => {
  const zod = { name: 'zod', modules: /[\\/]node_modules[\\/]zod[\\/]/ };

  it('names each landing route whose files carry one, and the file', () => {
    expect(excludedModulesFound(bundle, table, zod)).toEqual(['/rx-list loads zod before it draws (assets/zod.js)']);
    expect(excludedModulesFound(bundle, { '/rx-list': { scripts: ['/assets/shell.js'], styles: [] } }, zod)).toEqual([]);
  });

  it('names the entry when its static imports carry one, once, not again for each route', () => {
    const withZodInEntry = bundle.map((file) =>
      file.fileName === 'assets/index.js' ? { ...file, imports: ['assets/vendor.js', 'assets/zod.js'] } : file,
    );
    expect(excludedModulesFound(withZodInEntry, table, zod)).toEqual(['the entry loads zod (assets/zod.js)']);
  });
});
