import { describe, expect, it } from 'vitest';
import { preloadsFor } from './route-preloads.ts';
import { chunk } from './test-chunks.ts';

// The entry holds the router; the shell and the screen each import zod; the screen also a shared chunk the entry has.
const bundle = [
  chunk('assets/index-1.js', {
    isEntry: true,
    moduleIds: ['/src/main.tsx'],
    imports: ['assets/vendor-1.js'],
    css: ['assets/index-1.css'],
  }),
  chunk('assets/vendor-1.js', { moduleIds: ['/node_modules/react/index.js'] }),
  chunk('assets/signed-in-1.js', {
    moduleIds: ['/src/app/signed-in-shell.tsx'],
    imports: ['assets/zod-1.js', 'assets/vendor-1.js'],
    css: ['assets/signed-in-1.css'],
  }),
  chunk('assets/zod-1.js', { moduleIds: ['/node_modules/zod/index.js'] }),
  chunk('assets/rx-list-1.js', {
    moduleIds: ['/src/features/rx-list/routes/rx-list.tsx'],
    imports: ['assets/zod-1.js', 'assets/order-status-1.js'],
    css: ['assets/rx-list-1.css', 'assets/index-1.css'],
  }),
  chunk('assets/order-status-1.js', { moduleIds: ['/contract/order-status.ts'] }),
  chunk('assets/calendar-1.js', { moduleIds: ['/src/components/date-picker-calendar.ts'] }),
];

describe('the files a route’s first screen needs beyond the entry', () => {
  it('lists the shell’s chunk, then the screen’s, then what they import, each once, without the entry’s own', () => {
    expect(preloadsFor(bundle, ['/src/app/signed-in-shell.tsx', '/src/features/rx-list/routes/rx-list.tsx'])).toEqual({
      scripts: ['/assets/signed-in-1.js', '/assets/rx-list-1.js', '/assets/zod-1.js', '/assets/order-status-1.js'],
      styles: ['/assets/signed-in-1.css', '/assets/rx-list-1.css'],
    });
  });

  it('leaves out what is loaded lazily (the calendar): only static imports are followed', () => {
    const found = preloadsFor(bundle, ['/src/features/rx-list/routes/rx-list.tsx']);
    expect('scripts' in found && found.scripts).not.toContain('/assets/calendar-1.js');
  });

  it('names a root that is in no chunk, so the build fails rather than ship a stale list', () => {
    expect(preloadsFor(bundle, ['/src/features/renamed.tsx'])).toEqual({ missing: '/src/features/renamed.tsx' });
  });
});
