import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { preloadsFor, routePreloads } from './route-preloads.ts';
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

describe('the plugin’s budgets', () => {
  // A bundle as the plugin's hooks receive it: one entry chunk holding a screen's module.
  const entry = { type: 'chunk', fileName: 'assets/index.js', isEntry: true, moduleIds: [path.resolve('src/app.tsx')] };
  const build = () => {
    const bundle: Record<string, { code: string } & Record<string, unknown>> = {
      'assets/index.js': { ...entry, code: 'export const a = 1;', imports: [], viteMetadata: { importedCss: new Set() } },
    };
    const errors: string[] = [];
    const context = {
      emitFile: () => '',
      info: () => {},
      error: (message: string) => {
        errors.push(message);
        throw new Error(message);
      },
    };
    const plugin = routePreloads({ '/x': ['src/app.tsx'] }, { entryScripts: 200, screens: {} });
    const hook = (name: 'generateBundle' | 'writeBundle') => {
      const handler = plugin[name] as unknown as (this: typeof context, options: object, bundle: object) => void;
      try {
        handler.call(context, {}, bundle);
      } catch {
        // The error is kept in `errors`.
      }
    };
    return { bundle, errors, hook };
  };

  it('reads the files as written: what Vite adds to the entry after generateBundle is counted (issue 50)', () => {
    const { bundle, errors, hook } = build();
    hook('generateBundle');
    // Vite adds its preload dependency map to the entry after every plugin's generateBundle.
    const file = bundle['assets/index.js'] as { code: string };
    file.code += `const __vite__mapDeps = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `assets/chunk-${i}-${i * 7919}.js`))};`;
    hook('writeBundle');
    expect(errors).toEqual([expect.stringMatching(/the entry's scripts are .* over their budget of 0\.2 KiB/)]);
  });

  it('passes a bundle within its budgets', () => {
    const { errors, hook } = build();
    hook('generateBundle');
    hook('writeBundle');
    expect(errors).toEqual([]);
  });
});

describe('the head start in the route table (decision 0066)', () => {
  it('is named for the routes given, before their files, and for no other', () => {
    const entry = { type: 'chunk', fileName: 'assets/index.js', isEntry: true, moduleIds: [path.resolve('src/app.tsx')] };
    const bundle = { 'assets/index.js': { ...entry, code: '', imports: [], viteMetadata: { importedCss: new Set() } } };
    let written = '';
    const context = {
      emitFile: (file: { source: string }) => {
        written = file.source;
        return '';
      },
      error: (message: string) => {
        throw new Error(message);
      },
    };
    const plugin = routePreloads({ '/x': ['src/app.tsx'], '/login': ['src/app.tsx'] }, undefined, {
      routes: ['/x'],
      files: () => ['assets/head-start-1.js'],
    });
    (plugin.generateBundle as unknown as (this: typeof context, options: object, b: object) => void).call(context, {}, bundle);
    expect(JSON.parse(written)).toEqual({
      '/x': { scripts: [], styles: [], starts: ['/assets/head-start-1.js'] },
      '/login': { scripts: [], styles: [] },
    });
  });
});
