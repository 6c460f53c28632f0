import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

test('read and answer new comments until none are left: the tab disappears and the user lands on patient search', async ({
  page,
}) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/new-comments');
  await expect(page.getByRole('heading', { level: 1, name: 'New Comments' })).toBeVisible();
  const tab = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^New Comments/ });
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText(/^New Comments/)).toBeVisible();
  await expectAccessible(page);

  let replied = false;
  for (let i = 0; i < 40 && !/\/patient-search$/.test(page.url()); i += 1) {
    await page
      .getByRole('link', { name: /new comments?$/ })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Comments' })).toBeVisible();
    if (!replied) {
      await expectAccessible(page);
      await page.getByLabel('Reply').fill('Thank you, we will call you today.');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await expect(page.getByText('Thank you, we will call you today.')).toBeVisible();
      replied = true;
    }
    await page.getByRole('button', { name: 'Mark as read' }).click();
    // Back on the list with more to read, or (the last one read) sent on to patient search: wait for either,
    // not for the list's address alone, which shows for a moment before the move to patient search.
    const links = page.getByRole('link', { name: /new comments?$/ });
    await expect
      .poll(async () => /\/patient-search$/.test(page.url()) || (await links.count()) > 0, { timeout: 15_000 })
      .toBe(true);
  }
  await expect(page).toHaveURL(/\/patient-search$/);
  await expect(tab).toHaveCount(0);
});
