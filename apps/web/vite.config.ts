import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { LANDING_ROUTES, type LandingRoute, ROUTES } from '../../packages/contract/src/routes.ts';
import { compileHints } from './build/compile-hints.ts';
import { headStart } from './build/head-start.ts';
import { routePreloads } from './build/route-preloads.ts';
import { screenChunks } from './build/screen-chunks.ts';

/**
 * Sonner injects its CSS as an inline <style> when imported, which the strict CSP (style-src 'self')
 * blocks. This drops that injection; the same styles ship as a normal stylesheet (sonner/dist/styles.css
 * imported in app/layouts.tsx). docs/decisions/0011-action-needed.md.
 */
function noInlineToastStyles(): Plugin {
  return {
    name: 'hcp-no-inline-toast-styles',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const stripped = code.replace(/__insertCSS\("(?:[^"\\]|\\.)*"\);?/, '');
      if (stripped === code) this.error('sonner no longer injects CSS the way this plugin expects; update it');
      return { code: stripped, map: null };
    },
  };
}

/** Text files worth compressing; images and fonts of the build are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|vtt)$/i;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, once, at the highest
 * levels: the server sends the copy the browser accepts (issue 21: assets went out uncompressed and the
 * sign-in page took 5.4 s to draw on a phone). Source maps are never served, so they are left alone.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hcp-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < 512) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

const chunks = screenChunks({
  barrel: { specifier: '@hcp/contract', file: '../../packages/contract/src/index.ts' },
  signedOut: { modules: /[\\/]src[\\/](features[\\/](auth|appeals|legal)[\\/]|app[\\/]not-found)/, shared: 'common' },
  steps: [
    // The user-details guard travels with the shell, which checks that answer before it draws: loaded on its own,
    // it was one more round trip after the answer had arrived.
    { name: 'signed-in', roots: ['src/app/signed-in-shell.tsx', 'src/lib/boot-guards.ts'] },
    { name: 'action-needed', roots: ['src/features/action-needed/routes/action-needed.tsx'], shared: 'screens' },
  ],
});

/**
 * The chunks that run as soon as they arrive: the entry, the signed-in steps, zod (every answer check builds
 * and runs its schemas) and each route's own screen. Not the forms library or the calendar, idle until used.
 */
const runOnLoad = new Set(['zod', ...chunks.stepNames]);
const hints = compileHints(
  (chunk) =>
    chunk.isEntry ||
    runOnLoad.has(chunk.name) ||
    (chunk.isDynamicEntry && /[\\/](?:features[\\/][^\\/]+[\\/]routes|app)[\\/]/.test(chunk.facadeModuleId ?? '')),
);

const KIB = 1024;
/**
 * What a phone downloads before a first screen can draw, gzip (issue 50, decision 0062): the build fails past these.
 * They are today's sizes with a little room; lower them as the first load shrinks, never raise one to let a change in.
 * The goal for the entry is 60 KiB (React DOM alone is about that, so it needs a lighter renderer or server-rendered
 * first screens: decision 0062).
 */
const FIRST_LOAD_BUDGETS = {
  // The sizes are of the files as written (since 2026-12-05): before, they were read before Vite added its preload
  // dependency map to the entry, about 2.2 KiB gzip short (117.7 KiB counted, 119.9 sent). Each budget moved by that
  // correction and no more (same room as before); none was raised to let a change in.
  // The entry, which every page runs first (2026-12-05: 119.9 KiB; e2e first-load.spec.ts holds it to 120 as sent).
  entryScripts: 120 * KIB,
  // Entry, its stylesheet and the named files (2026-12-05: 155.8, 160.8, 150.9, 144.4 KiB).
  // The landing screens count their head start too since 2026-12-05 (decision 0066): each moved by its budget, 2.5 KiB,
  // for the bytes that let the screen's data leave before the entry has arrived.
  screens: {
    [ROUTES.actionNeeded]: 160 * KIB,
    // The Rx list no longer carries the virtualizer its default 100 rows never use (163.0 -> 153.4 KiB, 2026-12-05).
    [ROUTES.rxList]: 155.5 * KIB,
    [ROUTES.patientSearch]: 155.5 * KIB,
    [ROUTES.newComments]: 148.5 * KIB,
    // The sign-in page's files, named in its page since 2026-12-05 (146.7 KiB with the entry).
    [ROUTES.login]: 148.5 * KIB,
  },
  // No first screen builds zod's schemas before it draws: their answers have zod-free guards (decision 0064).
  excluded: { name: 'zod', modules: /[\\/]node_modules[\\/]zod[\\/]/ },
};

/**
 * The screens the portal is opened on (the landing screen, bookmarks, links in mails): the page the server sends for
 * them names the shell's and the screen's files, so they download beside the entry (decision 0047).
 */
const shell = 'src/app/signed-in-shell.tsx';
const actionNeeded = [shell, 'src/features/action-needed/routes/action-needed.tsx'];
/** A landing screen's first requests leave before the entry has arrived (decision 0066): 2.3 KiB on 2026-12-05. */
const head = headStart({ entry: 'src/head-start.ts', budget: 2.5 * KIB });
const preloads = routePreloads(
  {
    // The root sends the user on to Action Needed.
    [ROUTES.root]: actionNeeded,
    [ROUTES.actionNeeded]: actionNeeded,
    [ROUTES.rxList]: [shell, 'src/features/rx-list/routes/rx-list.tsx'],
    [ROUTES.patientSearch]: [shell, 'src/features/patients/routes/patient-search.tsx'],
    [ROUTES.newComments]: [shell, 'src/features/new-comments/routes/new-comments.tsx'],
    // The sign-in page, where every signed-out visit starts. Named by the router's preload helper instead, its ten
    // files cost a phone 140 ms of one task: each <link> appended from script starts its request on the main thread
    // (4-42 ms apiece at Lighthouse's 4x); named in the page, the browser asks for them while it parses (issue 50).
    [ROUTES.login]: ['src/features/auth/routes/login.tsx'],
    // Every landing route has its files named (the contract's list, which also sends their requests early).
  } satisfies Record<LandingRoute | typeof ROUTES.root | typeof ROUTES.login, readonly string[]>,
  FIRST_LOAD_BUDGETS,
  // The landing screens' pages run the head start (the root's page redirects before anything would use it).
  { routes: LANDING_ROUTES, files: () => head.api.files() },
);

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';
const proxied = ['/api', '/auth', '/auth-service', '/healthz', '/readyz'];

export default defineConfig({
  // APP_ENV (spec §9 environment names) picks the API, auth and operations addresses (lib/config.ts).
  envPrefix: ['VITE_', 'APP_ENV'],
  plugins: [noInlineToastStyles(), react(), precompress(), chunks.plugin, hints, preloads, head],
  resolve: {
    // Every `zod` import (ours and the contract's) goes through src/zod-jitless.ts, which configures zod for the
    // CSP before anything can use it. zod is not part of the first load (decision 0028), so no entry-point
    // import could guarantee that order.
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/zod-jitless.ts', import.meta.url)) }],
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: 'hidden',
    // No inline module-preload polyfill: the server's CSP allows no inline script.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The first load is one file: everything the entry needs at once (decision 0044).
            { name: 'entry', tags: ['$initial'], priority: 10 },
            // The forms library on its own: the screens without a form (the Rx list) never download it.
            { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/, priority: 5 },
            // zod with the contract's field and reference schemas: the sign-in form loads them when first touched, not
            // with the page. The references (`ref()`, used by most schemas) went to the signed-out pages' shared chunk,
            // beside the dialog and the form alert, and brought zod into the sign-in page's first load (issue 50).
            {
              name: 'zod',
              test: /node_modules[\\/]zod[\\/]|[\\/]src[\\/]zod-jitless\.ts$|[\\/]contract[\\/]src[\\/]api[\\/](?:fields|references)\.ts$/,
              priority: 6,
              // Only what the test names: the contract's zod-free rules these modules use (dates, text checks) stay
              // with the screens that show them, so formatting a date does not load zod (issue 50, decision 0064).
              includeDependenciesRecursively: false,
            },
            ...chunks.groups,
          ],
        },
      },
    },
  },
});
