import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

test('a user saves their own preferences from the footer link; they are kept', async ({ page }) => {
  await signInAs(page, 'vam.staff@demo.hcp');
  await page.goto('/patient-search');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Preferences', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Preferences' })).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue('Casey Vance');
  await expectAccessible(page);

  await page.getByLabel('Phone (optional)').fill('614-555');
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Enter a phone number as (555) 555-5555.')).toBeVisible();
  await page.getByLabel('Phone (optional)').fill('(614) 555-0177');
  await page.getByLabel('Send eRx refill authorizations without asking me to confirm').uncheck();
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Preferences saved.')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Phone (optional)')).toHaveValue('(614) 555-0177');
  await expect(page.getByLabel('Send eRx refill authorizations without asking me to confirm')).not.toBeChecked();
});

test('an office user edits their practice’s communication preferences', async ({ page }) => {
  await signInAs(page, 'vam.staff@demo.hcp');
  await page.goto('/patient-search');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Practice Preferences' }).click();
  // One practice: it opens directly.
  await expect(page).toHaveURL(/\/practice-preferences\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 2 })).toBeVisible();
  await expectAccessible(page);
  await page
    .getByRole('group', { name: 'Refill requests' })
    .getByRole('radio', { name: 'Do not ask for refills', exact: true })
    .check();
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Communication preferences saved.')).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('group', { name: 'Refill requests' }).getByRole('radio', { name: 'Do not ask for refills', exact: true }),
  ).toBeChecked();
});
