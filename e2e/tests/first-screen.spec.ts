/**
 * The first screen after opening the portal (issue 21, decisions 0044, 0045 and 0047): its requests leave while its
 * code downloads, each once, the page names that code so it downloads beside the entry, the screen's code arrives in
 * a few files rather than dozens, and the files that run at once are compiled while they download.
 */
import { firstAnswersParts } from '@hcp/contract';
import type { Page } from '@playwright/test';
import { expect, signInAs, test } from './fixtures.ts';

/**
 * The shell's answers a request asks for, as path and query: itself, or, for the head start's first answers (decision
 * 0068), each request they stand for (the contract's list, which the server answers part by part).
 */
function answersIn(url: string): string[] {
  const { pathname, searchParams } = new URL(url, 'http://portal.test');
  if (!pathname.endsWith('/first-answers')) return [url];
  const userId = decodeURIComponent(pathname.split('/')[5] ?? '');
  return firstAnswersParts({ screen: '', ...Object.fromEntries(searchParams) }, userId).map(({ path, query }) => {
    const qs = new URLSearchParams(query).toString();
    return qs ? `${path}?${qs}` : path;
  });
}

/**
 * Holds a file back until the page has asked for `wanted`, as a phone's network would hold it. The page names the
 * screen's files in its head (decision 0047), so on this machine they arrive before the entry has even run: only a
 * held file shows whether the requests wait for it. The order is decided by the requests themselves, not by how
 * fast the machine is (issue 44): a page that asks only once the file has run never gets it, and the screen's own
 * expectation fails.
 */
async function holdUntilRequested(page: Page, file: RegExp, wanted: (url: string) => boolean, count: number) {
  let asked = 0;
  let release: () => void = () => {};
  const requested = new Promise<void>((resolve) => {
    release = resolve;
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    asked += answersIn(url.pathname + url.search).filter(wanted).length;
    if (asked >= count) release();
  });
  await page.route(file, async (route) => {
    await requested;
    await route.continue();
  });
}

/**
 * The page's requests as path and query, in the order the browser reported them: `sent` as sent, `seen` the same with
 * the first answers read as the requests they stand for, `received` when a file had arrived. `at` orders the lists
 * against each other.
 */
function trackRequests(page: Page) {
  const sent: { url: string; at: number }[] = [];
  const seen: { url: string; at: number }[] = [];
  const received: { url: string; at: number }[] = [];
  let order = 0;
  const path = (raw: string) => {
    const url = new URL(raw);
    return url.pathname + url.search;
  };
  page.on('request', (request) => {
    const at = order++;
    sent.push({ url: path(request.url()), at });
    for (const url of answersIn(path(request.url()))) seen.push({ url, at });
  });
  page.on('requestfinished', (request) => received.push({ url: path(request.url()), at: order++ }));
  return { sent, seen, received };
}

test('opening Action Needed asks for each of its answers once, before its code has arrived', async ({ page }) => {
  const { userID } = await signInAs(page, 'dr.morgan@demo.hcp');
  const { seen, received } = trackRequests(page);
  const shellAnswers = [
    `/api/mdo/v1/users/${userID}/mdo-user-details`,
    '/api/mdo/v1/feature-flags',
    `/api/mdo/v2/users/${userID}/doctor-list-search?newComments=true`,
    `/api/mdo/v2/users/${userID}/action-needed?actionType=ACTION_NEEDED_ALL`,
  ];
  await holdUntilRequested(page, /\/assets\/signed-in-[^/]+\.js$/, (url) => shellAnswers.includes(url), shellAnswers.length);
  await page.goto('/action-needed');
  await expect(page.getByRole('heading', { level: 1, name: 'Action Needed' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'All requests' })).toBeVisible();

  for (const answer of shellAnswers) {
    expect(
      seen.filter((r) => r.url === answer),
      answer,
    ).toHaveLength(1);
  }
  // Asked for while the shell's code was still on its way: without the early requests, the shell's queries
  // could only ask once its file had arrived and run.
  const shellArrived = received.find((r) => /^\/assets\/signed-in-[^/]+\.js$/.test(r.url));
  expect(shellArrived, 'the signed-in chunk').toBeDefined();
  for (const answer of shellAnswers) {
    expect(seen.find((r) => r.url === answer)?.at, answer).toBeLessThan(shellArrived?.at ?? 0);
  }
  // One file per step instead of ~40 (the preload links the entry appends cost a phone's main thread).
  const scripts = seen.filter((r) => r.url.startsWith('/assets/') && r.url.endsWith('.js'));
  console.log(`Action Needed: ${scripts.length} scripts`);
  expect(scripts.length).toBeLessThanOrEqual(16);
  // The card view has no form: the forms library comes with the queue view or a request's page (decision 0045).
  expect(scripts.filter((r) => /\/forms-[^/]+\.js$/.test(r.url))).toEqual([]);
});

for (const route of ['/action-needed', '/rx-list', '/patient-search', '/new-comments'] as const) {
  test(`${route}: the page's head start asks for the shell's answers in one request before the entry has arrived, and only once`, async ({
    page,
  }) => {
    const { userID } = await signInAs(page, 'dr.morgan@demo.hcp');
    const { sent, seen, received } = trackRequests(page);
    const shellAnswers = [
      `/api/mdo/v1/users/${userID}/mdo-user-details`,
      '/api/mdo/v1/feature-flags',
      `/api/mdo/v2/users/${userID}/doctor-list-search?newComments=true`,
    ];
    // The entry is held until the page has asked for them all: only the head start can (decision 0066). Without it
    // the entry never arrives and the screen never draws.
    await holdUntilRequested(page, /\/assets\/index-[^/]+\.js$/, (url) => shellAnswers.includes(url), shellAnswers.length);
    await page.goto(route);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const answer of shellAnswers) {
      expect(
        seen.filter((r) => r.url === answer),
        answer,
      ).toHaveLength(1);
    }
    // All in one request (decision 0068): the head start's first answers, the page's only API request before the entry.
    const firstEntry = seen.findIndex((r) => /^\/assets\/index-[^/]+\.js$/.test(r.url));
    const entryArrived = received.find((r) => /^\/assets\/index-[^/]+\.js$/.test(r.url));
    expect(entryArrived, 'the entry').toBeDefined();
    const beforeEntry = sent.filter((r) => r.url.startsWith('/api/') && r.at < (entryArrived?.at ?? 0));
    expect(beforeEntry.map((r) => new URL(r.url, 'http://portal.test').pathname)).toEqual([
      `/api/mdo/v1/users/${userID}/first-answers`,
    ]);
    const headStart = seen.findIndex((r) => /^\/assets\/head-start-[^/]+\.js$/.test(r.url));
    expect(headStart, 'the head start is asked for').toBeGreaterThanOrEqual(0);
    expect(firstEntry).toBeGreaterThanOrEqual(0);
  });
}

test('opening the Rx list asks for its opening rows once, before its code has arrived', async ({ page }) => {
  const { userID } = await signInAs(page, 'dr.morgan@demo.hcp');
  const { seen, received } = trackRequests(page);
  await holdUntilRequested(
    page,
    /\/assets\/rx-list-[^/]+\.js$/,
    (url) => url.split('?')[0]?.endsWith(`/users/${userID}/rx-list`) ?? false,
    1,
  );
  await page.goto('/rx-list');
  await expect(page.getByRole('heading', { level: 1, name: /^New Prescriptions List \(\d+\)$/ })).toBeVisible();

  const rows = seen.filter((r) => r.url.split('?')[0]?.endsWith(`/users/${userID}/rx-list`));
  expect(rows, 'the Rx list is asked for once').toHaveLength(1);
  const query = new URL(rows[0]?.url ?? '/', 'http://x').searchParams;
  expect(query.get('selectedFilter')).toBe('none');
  // Decision 0046: sent with the shell's requests; without it the screen asks only once its code has arrived and drawn.
  const screenArrived = received.find((r) => /^\/assets\/rx-list-[^/]+\.js$/.test(r.url));
  expect(screenArrived, 'the Rx list chunk').toBeDefined();
  expect(rows[0]?.at).toBeLessThan(screenArrived?.at ?? 0);
});

for (const [route, done] of [
  ['/action-needed', 'All requests'],
  ['/rx-list', 'Prescriptions'],
] as const) {
  test(`${route}: the page names its screen's files, asked for before the entry has run, and nothing else loads`, async ({
    page,
    request,
  }) => {
    await signInAs(page, 'dr.morgan@demo.hcp');
    const html = await (await request.get(route)).text();
    const named = [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]* href="([^"]+)"/g)].map((m) => m[1] as string);
    // The entry and the head start (decision 0066): the scripts the page itself names.
    const own = [...html.matchAll(/<script [^>]*src="([^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(own.some((file) => /\/head-start-[^/]+\.js$/.test(file))).toBe(true);
    expect(named.length, 'files named in the page').toBeGreaterThan(2);
    expect(named.some((file) => file.endsWith('.css'))).toBe(true);

    const requests = trackRequests(page).seen;
    await page.goto(route);
    await expect(page.getByRole(route === '/rx-list' ? 'region' : 'list', { name: done })).toBeVisible();
    const seen = requests.map(({ url }) => url);
    // Each named file is asked for once (the preload is what the screen uses), and before any of the shell's
    // requests, which only a script can send: so it was asked for as the page was read, not by a script.
    const firstAnswer = seen.findIndex((url) => url.startsWith('/api/'));
    expect(firstAnswer).toBeGreaterThan(0);
    for (const file of named) {
      expect(
        seen.filter((url) => url === file),
        file,
      ).toHaveLength(1);
      expect(seen.indexOf(file), file).toBeLessThan(firstAnswer);
    }
    // The list is whole: the first screen loads no script the page did not name (a renamed screen would).
    const scripts = seen.filter((url) => url.startsWith('/assets/') && url.endsWith('.js'));
    expect(scripts.filter((file) => !named.includes(file) && !own.includes(file))).toEqual([]);
  });
}

test('the code that runs as soon as it arrives asks to be compiled while it downloads', async ({ page, request }) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  const scripts: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.push(pathname);
  });
  await page.goto('/action-needed');
  await expect(page.getByRole('list', { name: 'All requests' })).toBeVisible();
  const firstLine = async (file: string) => (await (await request.get(file)).text()).split('\n', 1)[0];
  // Decision 0045: V8 compiles these on a background thread, rather than function by function on the main thread.
  // zod is no longer among them: the screen's answers have zod-free guards (decision 0064, first-load.spec.ts).
  const runOnLoad = scripts.filter((file) => /\/(?:index|signed-in|action-needed)-[^/]+\.js$/.test(file));
  expect(runOnLoad).toHaveLength(3);
  for (const file of runOnLoad) expect(await firstLine(file), file).toBe('//# allFunctionsCalledOnLoad');
  // The shared screens chunk (table, pagination, search box) is mostly idle on this screen: compiling all of it would be
  // spent on functions never called.
  const shared = scripts.find((file) => /\/screens-[^/]+\.js$/.test(file));
  expect(shared, 'the shared screens chunk').toBeDefined();
  expect(await firstLine(shared ?? '')).not.toBe('//# allFunctionsCalledOnLoad');
});
