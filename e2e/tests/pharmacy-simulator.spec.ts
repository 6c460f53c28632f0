import { authorizeRefillByFax, expect, expectAccessible, signInAs, simulatePharmacy, test } from './fixtures.ts';

/**
 * The pharmacy door end to end (issue 19): the simulator signs in as the demo pharmacy system (SMART Backend
 * Services), posts a refill request through the FHIR API, and the prescriber sees it in the browser and authorises it.
 */
test('a refill request posted by the pharmacy simulator reaches the prescriber, who authorises it', async ({ page, baseURL }) => {
  const sent = simulatePharmacy(baseURL as string, 'refill-request');
  expect(sent).toHaveLength(1);
  const prescription = sent[0] as string;

  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto(`/action-needed/${prescription}/refillAuth`);
  await expect(page.getByRole('heading', { level: 1, name: /^Refill authorization: / })).toBeVisible();
  await expect(page.getByText('Refill authorization requested by the pharmacy')).toBeVisible();
  await expectAccessible(page);
  await authorizeRefillByFax(page);
  await expect(page).toHaveURL(/\/action-needed$/);
  await page.goto(`/action-needed/${prescription}/refillAuth`);
  await expect(page.getByRole('button', { name: 'Authorize by fax' })).toHaveCount(0);
});
