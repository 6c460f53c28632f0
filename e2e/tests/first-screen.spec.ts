/**
 * The first screen after opening the portal (issue 21, decisions 0044 and 0045): its requests leave while its code
 * downloads, each once, the screen's code arrives in a few files rather than dozens, and the files that run at once
 * are compiled while they download.
 */
import { expect, signInAs, test } from './fixtures.ts';

test('opening Action Needed asks for each of its answers once, before its code has arrived', async ({ page }) => {
  const { userID } = await signInAs(page, 'dr.morgan@demo.hcp');
  // Events in the order the browser reported them: a request sent, a file received.
  const seen: { url: string; at: number }[] = [];
  const received: { url: string; at: number }[] = [];
  let order = 0;
  const path = (raw: string) => {
    const url = new URL(raw);
    return url.pathname + url.search;
  };
  page.on('request', (request) => seen.push({ url: path(request.url()), at: order++ }));
  page.on('requestfinished', (request) => received.push({ url: path(request.url()), at: order++ }));
  await page.goto('/action-needed');
  await expect(page.getByRole('heading', { level: 1, name: 'Action Needed' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'All requests' })).toBeVisible();

  const shellAnswers = [
    `/api/mdo/v1/users/${userID}/mdo-user-details`,
    '/api/mdo/v1/feature-flags',
    `/api/mdo/v2/users/${userID}/doctor-list-search?newComments=true`,
    `/api/mdo/v2/users/${userID}/action-needed?actionType=ACTION_NEEDED_ALL`,
  ];
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

test('opening the Rx list asks for its opening rows once, before its code has arrived', async ({ page }) => {
  const { userID } = await signInAs(page, 'dr.morgan@demo.hcp');
  const seen: { url: string; at: number }[] = [];
  const received: { url: string; at: number }[] = [];
  let order = 0;
  page.on('request', (request) => seen.push({ url: request.url(), at: order++ }));
  page.on('requestfinished', (request) => received.push({ url: request.url(), at: order++ }));
  await page.goto('/rx-list');
  await expect(page.getByRole('heading', { level: 1, name: /^New Prescriptions List \(\d+\)$/ })).toBeVisible();

  const rows = seen.filter((r) => new URL(r.url).pathname.endsWith(`/users/${userID}/rx-list`));
  expect(rows, 'the Rx list is asked for once').toHaveLength(1);
  const query = new URL(rows[0]?.url ?? 'http://x').searchParams;
  expect(query.get('selectedFilter')).toBe('none');
  // Decision 0046: sent with the shell's requests; without it the screen asks only once its code has arrived and drawn.
  const screenArrived = received.find((r) => /\/assets\/rx-list-[^/]+\.js$/.test(new URL(r.url).pathname));
  expect(screenArrived, 'the Rx list chunk').toBeDefined();
  expect(rows[0]?.at).toBeLessThan(screenArrived?.at ?? 0);
});

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
  const runOnLoad = scripts.filter((file) => /\/(?:index|signed-in|action-needed|zod)-[^/]+\.js$/.test(file));
  expect(runOnLoad).toHaveLength(4);
  for (const file of runOnLoad) expect(await firstLine(file), file).toBe('//# allFunctionsCalledOnLoad');
  // The shared screens chunk (table, pagination, search box) is mostly idle on this screen: compiling all of it would be
  // spent on functions never called.
  const shared = scripts.find((file) => /\/screens-[^/]+\.js$/.test(file));
  expect(shared, 'the shared screens chunk').toBeDefined();
  expect(await firstLine(shared ?? '')).not.toBe('//# allFunctionsCalledOnLoad');
});
