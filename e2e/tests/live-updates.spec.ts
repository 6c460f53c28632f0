import { expect, signInAs, simulatePharmacy, test } from './fixtures.ts';

/**
 * Live updates (issue 20): with Action Needed open, a request the pharmacy posts through the FHIR API shows up
 * within seconds, without a reload, and a screen reader hears it once in a polite status message.
 */
test('a pharmacy’s new request reaches an open Action Needed page without a reload', async ({ page, baseURL }) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  const streamOpen = page.waitForResponse((r) => r.url().includes('/live-updates') && r.status() === 200);
  await page.goto('/action-needed');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await streamOpen;
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });

  // The simulator returns once its Task is written: from then on the page has it within seconds (2 s goal; 5 s
  // allowed here, where CI runs four journeys beside the server on two cores).
  const prescription = simulatePharmacy(baseURL as string, 'refill-request')[0] as string;
  const started = Date.now();
  await expect(page.locator(`a[href*="${prescription}"]`).first()).toBeAttached({ timeout: 5_000 });
  const seenAfter = Date.now() - started;
  await expect(page.getByRole('status').filter({ hasText: /new items?$/ })).toHaveText(/^\d+ new items?$/);
  expect(navigations).toEqual([]);
  console.log(`live update: the new request was on the open page ${seenAfter} ms after it was written`);
});
