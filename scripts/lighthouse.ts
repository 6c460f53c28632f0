/**
 * Lighthouse scores of the screens issue 21 names, mobile and desktop, each with a cold HTTP cache:
 * sign-in (signed out), Action Needed and the Rx list (signed in as the demo prescriber).
 *
 *   npm start                                             # in another terminal: the portal with demo data
 *   npm install --prefix /tmp/lighthouse lighthouse@12.8.2  # once, outside the project (~200 packages)
 *   LIGHTHOUSE_DIR=/tmp/lighthouse npm run lighthouse -- [--url http://localhost:3000] [--out reports/lighthouse]
 *     [--runs 3]   # each screen and mode N times, interleaved; prints every run, then the median and the worst
 *     [--compare http://localhost:3001]   # a second build, run after the first at every step (A, B, A, B ...)
 *     [--busy 1]   # keep one other thread spinning through every run: the busy afternoon, on demand
 *
 * Lighthouse is not a dependency: its ~200 packages would slow every `npm ci` for a measurement run by hand.
 *
 * Lighthouse's own storage reset would also sign the browser out, so the signed-in runs keep storage and
 * clear the HTTP cache through the DevTools protocol before each run instead. Mobile uses Lighthouse's
 * default simulated slow 4G and 4x CPU slowdown; desktop its desktop preset.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:3000' },
    out: { type: 'string', default: 'reports/lighthouse' },
    email: { type: 'string', default: 'dr.morgan@demo.hcp' },
    password: { type: 'string', default: 'demo-password-2026' },
    /** Comma-separated subsets, for quicker runs while working on one screen: sign-in,action-needed,rx-list */
    screens: { type: 'string', default: 'sign-in,action-needed,rx-list' },
    modes: { type: 'string', default: 'mobile,desktop' },
    /**
     * The tutorial opens by itself on every sign-in until 'Do not show this again' (spec §1). 'shown' measures
     * that first visit; 'dismissed' the prescriber's every other morning.
     */
    tutorial: { type: 'string', default: 'shown' },
    /**
     * Each screen and mode this many times (issue 50: a score holds in 3 of 3 runs, not on a quiet day). Rounds are
     * interleaved (every screen once, then again), so a busy minute on the machine falls on all screens alike.
     */
    runs: { type: 'string', default: '1' },
    /**
     * A second build to measure beside the first (issue 50): this shared machine's speed moves a score by 15-20 points
     * from one minute to the next, so two builds are compared run by run, each run of one straight after the same
     * run of the other, and the difference is read per pair (median, min and max), never from two separate sets.
     */
    compare: { type: 'string' },
    /** Also write each run's trace (`<screen>-<mode>.trace.json`, ~20 MB): open it in DevTools' Performance panel. */
    trace: { type: 'boolean', default: false },
    /**
     * Keep this many other threads busy through every run (a spinning worker each): a busy afternoon on demand, so a
     * score that holds only on a quiet machine shows as such in minutes rather than on the day it matters.
     */
    busy: { type: 'string', default: '0' },
  },
});
const screens = new Set((values.screens ?? '').split(','));
const modes = (values.modes ?? '').split(',').filter((m): m is 'mobile' | 'desktop' => m === 'mobile' || m === 'desktop');
/** The builds measured: `--url` (A) and, with `--compare`, B. */
const builds = [
  { build: 'A', base: (values.url ?? '').replace(/\/$/, '') },
  ...(values.compare ? [{ build: 'B', base: values.compare.replace(/\/$/, '') }] : []),
];
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a whole number of at least 1, not ${values.runs}`);
  process.exit(2);
}

const busy = Number(values.busy);
if (!Number.isInteger(busy) || busy < 0) {
  console.error(`--busy must be a whole number, not ${values.busy}`);
  process.exit(2);
}
const spinners = Array.from({ length: busy }, () => new Worker('for (;;) {}', { eval: true }));

const lighthouseDir = path.resolve(process.env.LIGHTHOUSE_DIR ?? '/tmp/lighthouse');

async function load<T>(name: string): Promise<T> {
  try {
    const resolved = createRequire(path.join(lighthouseDir, 'package.json')).resolve(name);
    return (await import(pathToFileURL(resolved).href)) as T;
  } catch {
    console.error(`${name} is not in ${lighthouseDir}. Run: npm install --prefix ${lighthouseDir} lighthouse@12.8.2`);
    process.exit(2);
  }
}

type Flags = Record<string, unknown>;
type LighthouseRun = (
  url: string,
  flags: Flags,
  config: unknown,
  page: unknown,
) => Promise<{ lhr: Lhr; report: string | string[]; artifacts?: { Trace?: unknown } } | undefined>;
interface Lhr {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; displayValue?: string }>;
}

const lighthouse = (await load<{ default: LighthouseRun }>('lighthouse')).default;
const desktopConfig = (await load<{ default: unknown }>('lighthouse/core/config/desktop-config.js')).default;
const puppeteer = (
  await load<{
    default: {
      launch: (o: object) => Promise<{
        newPage: () => Promise<PuppeteerPage>;
        close: () => Promise<void>;
      }>;
    };
  }>('puppeteer-core')
).default;
interface PuppeteerPage {
  goto: (url: string, o?: object) => Promise<unknown>;
  type: (selector: string, text: string) => Promise<void>;
  click: (selector: string) => Promise<void>;
  waitForSelector: (selector: string, o?: object) => Promise<unknown>;
  waitForFunction: (fn: string, o?: object) => Promise<unknown>;
  evaluate: (fn: string) => Promise<unknown>;
  createCDPSession: () => Promise<{ send: (method: string, params?: object) => Promise<unknown> }>;
}

const browser = await puppeteer.launch({
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: CHROMIUM_ARGS.filter((flag) => flag !== '--headless'),
});
const page = await browser.newPage();
const outDir = path.resolve(values.out ?? 'reports/lighthouse');
mkdirSync(outDir, { recursive: true });

/**
 * Lighthouse's storage reset leaves local storage alone (so as not to sign anyone out), and the session lives there:
 * without this the second round's sign-in page would measure a signed-in redirect to Action Needed.
 */
async function signOut(base: string) {
  const cdp = await page.createCDPSession();
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(base).origin, storageTypes: 'local_storage,indexeddb' });
  await page.goto('about:blank');
}

async function signIn(base: string) {
  await signOut(base);
  // A Lighthouse run can leave its throttling on the page; signing in is not measured, so it runs at full speed.
  const cdp = await page.createCDPSession();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await page.goto(`${base}/login`, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('input[autocomplete="username"]').catch(async (error) => {
    console.error(`No sign-in form at ${String(await page.evaluate('location.href'))}`);
    console.error(String(await page.evaluate('document.body.innerText')).slice(0, 500));
    throw error;
  });
  await page.type('input[autocomplete="username"]', values.email ?? '');
  await page.type('input[type="password"]', values.password ?? '');
  await page.click('button[type="submit"]');
  await page.waitForFunction('location.pathname !== "/login"', { timeout: 30_000 });
  if (values.tutorial === 'dismissed') await page.evaluate('localStorage.setItem("hcp.tutorialDismissed", "true")');
}

async function run(
  { build, base }: (typeof builds)[number],
  name: string,
  route: string,
  mode: 'mobile' | 'desktop',
  signedIn: boolean,
  round: number,
) {
  // A run whose trace Lighthouse could not read (NO_NAVSTART, NO_FCP ...) reports every score as 0: that is not a
  // measurement of the page, so it runs again (twice at most) and the row says so.
  let result: Awaited<ReturnType<LighthouseRun>>;
  let retried = 0;
  for (;;) {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    result = await lighthouse(
      `${base}${route}`,
      {
        output: ['html', 'json'],
        logLevel: 'error',
        disableStorageReset: signedIn,
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      },
      mode === 'desktop' ? desktopConfig : undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${route}`);
    const failure = result.lhr.runtimeError;
    if (!failure || retried === 2) break;
    retried += 1;
    console.error(`${name} ${mode} run ${round}: Lighthouse could not measure it (${failure.code}); running it again`);
  }
  const { lhr } = result;
  const [html, json] = result.report as string[];
  const file = [...(builds.length > 1 ? [build] : []), name, mode, ...(runs > 1 ? [round] : [])].join('-');
  writeFileSync(path.join(outDir, `${file}.html`), String(html));
  // The JSON is what to read when a score moves: long tasks, the LCP element and its phases, the request chain.
  writeFileSync(path.join(outDir, `${file}.json`), String(json));
  if (values.trace) writeFileSync(path.join(outDir, `${file}.trace.json`), JSON.stringify(result.artifacts?.Trace));
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const ms = (id: string) => `${((lhr.audits[id]?.numericValue ?? 0) / 1000).toFixed(1)} s`;
  return {
    ...(builds.length > 1 ? { build } : {}),
    screen: name,
    mode,
    run: round,
    ...(signedIn ? { tutorial: values.tutorial } : {}),
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: ms('first-contentful-paint'),
    lcp: ms('largest-contentful-paint'),
    tbt: `${Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0)} ms`,
    cls: (lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3),
    bytes: `${Math.round((lhr.audits['total-byte-weight']?.numericValue ?? 0) / 1024)} KiB`,
    ...(retried > 0 ? { retried } : {}),
    ...(lhr.runtimeError ? { error: lhr.runtimeError.code } : {}),
  };
}

const rows: Awaited<ReturnType<typeof run>>[] = [];
try {
  const signedInScreens = (
    [
      ['action-needed', '/action-needed'],
      ['rx-list', '/rx-list'],
    ] as const
  ).filter(([name]) => screens.has(name));
  for (let round = 1; round <= runs; round += 1) {
    if (screens.has('sign-in')) {
      for (const mode of modes) {
        for (const target of builds) {
          await signOut(target.base);
          rows.push(await run(target, 'sign-in', '/login', mode, false, round));
        }
      }
    }
    // Each round signs in afresh (a new session: the tutorial opens as it would on a morning's first visit). Each
    // build has its own origin, so its own session: both stay signed in through the round.
    if (signedInScreens.length > 0) for (const target of builds) await signIn(target.base);
    for (const [name, route] of signedInScreens) {
      for (const mode of modes) for (const target of builds) rows.push(await run(target, name, route, mode, true, round));
    }
  }
} finally {
  await browser.close();
  await Promise.all(spinners.map((spinner) => spinner.terminate()));
}
console.table(rows);
if (runs > 1) console.table(summarise(rows));
if (builds.length > 1) console.table(compared(rows));
writeFileSync(
  path.join(outDir, 'summary.json'),
  `${JSON.stringify({ runs: rows, summary: summarise(rows), ...(builds.length > 1 ? { compared: compared(rows) } : {}) }, null, 2)}\n`,
);
console.log(`Reports in ${outDir}`);

/** Per screen and mode: the median and the worst of the runs' scores, and the spread of the largest paint and TBT. */
function summarise(all: typeof rows) {
  // Node 20 has no Map.groupBy.
  const groups = new Map<string, typeof all>();
  const keyOf = (r: (typeof all)[number]) => [r.build, r.screen, r.mode].filter(Boolean).join(' ');
  for (const r of all) groups.set(keyOf(r), [...(groups.get(keyOf(r)) ?? []), r]);
  return [...groups].map(([key, group]) => {
    const scores = group.map((r) => r.performance).sort((a, b) => a - b);
    const range = (pick: (r: (typeof group)[number]) => string) => {
      const values = group.map(pick).sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b));
      return values.length > 1 ? `${values[0]} – ${values.at(-1)}` : values[0];
    };
    return {
      screen: key,
      runs: group.length,
      median: scores[Math.floor((scores.length - 1) / 2)],
      worst: scores[0],
      scores: group.map((r) => r.performance).join(', '),
      lcp: range((r) => r.lcp),
      tbt: range((r) => r.tbt),
    };
  });
}

/**
 * Per screen and mode: B's score minus A's, run by run (each pair ran one after the other), as the median with the
 * min and max; and the same for the largest paint and the blocking time. A positive score difference favours B.
 */
function compared(all: typeof rows) {
  const pairs = new Map<string, { score: number[]; lcp: number[]; tbt: number[] }>();
  for (const b of all.filter((r) => r.build === 'B')) {
    const a = all.find((r) => r.build === 'A' && r.screen === b.screen && r.mode === b.mode && r.run === b.run);
    if (!a) continue;
    const key = `${b.screen} ${b.mode}`;
    const pair = pairs.get(key) ?? { score: [], lcp: [], tbt: [] };
    pair.score.push(b.performance - a.performance);
    pair.lcp.push(Number.parseFloat(b.lcp) - Number.parseFloat(a.lcp));
    pair.tbt.push(Number.parseFloat(b.tbt) - Number.parseFloat(a.tbt));
    pairs.set(key, pair);
  }
  const spread = (values: number[], digits: number) => {
    const sorted = [...values].sort((x, y) => x - y);
    const at = (i: number) => (sorted[i] ?? 0).toFixed(digits);
    return `${at(Math.floor((sorted.length - 1) / 2))} (${at(0)} … ${at(sorted.length - 1)})`;
  };
  return [...pairs].map(([key, pair]) => ({
    screen: key,
    pairs: pair.score.length,
    'score B−A': spread(pair.score, 0),
    'lcp B−A (s)': spread(pair.lcp, 1),
    'tbt B−A (ms)': spread(pair.tbt, 0),
  }));
}
