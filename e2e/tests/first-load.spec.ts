/**
 * What a phone downloads before the first screen (issue 21, decision 0028): the entry script stays within 120 KiB
 * gzipped as the server sends it, the sign-in page with the files its HTML names within 148 KiB, and zod is not among
 * them (the schemas load on demand, while the first requests are out).
 */
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { LANDING_ROUTES, ROUTES } from '@hcp/contract';
import { expect, signInAs, test } from './fixtures.ts';

/** The entry script, which every page runs first. */
const ENTRY_BUDGET = 120 * 1024;
/** The sign-in page's scripts: the entry and the files its page names (the build's own budget, stylesheets too, is 148.5 KiB). */
const SIGN_IN_BUDGET = 148 * 1024;

/** The scripts a page's HTML names for the browser to fetch while it parses. */
const namedScripts = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map((m) => m[1] as string);

/** The bytes as sent: Playwright's and Node's fetch both unpack gzip, which would hide the size. */
function rawGet(url: string): Promise<{ status: number; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

test('the entry is at most 120 KiB of gzipped script and the sign-in page 148 KiB with its named files, without zod', async ({
  request,
  baseURL,
}) => {
  const html = await (await request.get('/login')).text();
  const entry = [...html.matchAll(/<script type="module"[^>]+src="([^"]+\.js)"/g)].map((m) => m[1] as string);
  const preloads = namedScripts(html);
  expect(entry).toHaveLength(1);
  // The page names the sign-in screen's own code: fetched while the page parses, not asked for by script after the
  // entry has run (each <link> a script adds starts its request on the main thread, issue 50).
  expect(
    preloads.some((src) => /\/login-[^/]+\.js$/.test(src)),
    'the sign-in screen named',
  ).toBe(true);
  const sizes: number[] = [];
  for (const src of [...entry, ...preloads]) {
    const res = await rawGet(new URL(src, baseURL).href);
    expect(res.status, src).toBe(200);
    expect(res.encoding, src).toBe('gzip');
    sizes.push(res.body.length);
    // zod names its classes in strings ('$ZodType', '$ZodObject'), which survive minification. (Not 'ZodError': the
    // forms library's resolver names '$ZodError' to recognise zod's errors, without zod.)
    const text = gunzipSync(res.body).toString('utf8');
    expect(text.includes('$ZodObject') || text.includes('$ZodType'), `${src} carries zod`).toBe(false);
  }
  const total = sizes.reduce((sum, size) => sum + size, 0);
  console.log(
    `entry ${((sizes[0] ?? 0) / 1024).toFixed(1)} KiB; sign-in page: ${sizes.length} scripts, ${(total / 1024).toFixed(1)} KiB gzip`,
  );
  expect(sizes[0]).toBeLessThanOrEqual(ENTRY_BUDGET);
  expect(total).toBeLessThanOrEqual(SIGN_IN_BUDGET);
});

test('the sign-in page draws and settles without zod; the form brings it when first used (issue 50)', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) scripts.push(pathname);
  });
  const zodScripts = () => scripts.filter((file) => /\/zod-[^/]+\.js$/.test(file));
  await page.goto('/login');
  const email = page.locator('input[autocomplete="username"]');
  await expect(email).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Every script the page loaded by itself, the screen's lazily loaded ones included: none is zod (a shared chunk
  // carrying the contract's reference schemas once brought it in).
  expect(zodScripts()).toEqual([]);
  // Every module the page preloads is one its HTML named: the router's preload helper added none by script.
  const named = namedScripts(await (await page.request.get('/login')).text());
  const linked = await page
    .locator('link[rel="modulepreload"]')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(linked.sort()).toEqual([...named].sort());
  await email.focus();
  await expect.poll(() => zodScripts().length).toBe(1);
});

/** What shows that each landing screen has drawn from its answers. */
const DRAWN: Record<(typeof LANDING_ROUTES)[number], Parameters<import('@playwright/test').Page['getByRole']>> = {
  [ROUTES.actionNeeded]: ['list', { name: 'All requests' }],
  [ROUTES.rxList]: ['region', { name: 'Prescriptions' }],
  [ROUTES.patientSearch]: ['heading', { level: 1, name: 'All Patients' }],
  [ROUTES.newComments]: ['heading', { level: 1, name: 'New Comments' }],
};

for (const route of LANDING_ROUTES) {
  test(`${route} draws from its answers and settles without zod (issue 50, decision 0064)`, async ({ page }) => {
    await signInAs(page, 'dr.morgan@demo.hcp');
    const scripts: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.js')) scripts.push(pathname);
    });
    await page.goto(route);
    await expect(page.getByRole(...DRAWN[route])).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.length, 'scripts seen').toBeGreaterThan(2);
    // The answers were checked by zod-free guards, and nothing the screen loads by itself afterwards brings zod:
    // its schemas would cost a phone 120-220 ms to build.
    expect(scripts.filter((file) => /\/zod-[^/]+\.js$/.test(file))).toEqual([]);
  });
}
