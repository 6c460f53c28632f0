import { expect, expectAccessible, latestMailTo, signInAs, test } from './fixtures.ts';

test('the admin invites an office user, finds them, and disables the account', async ({ page }) => {
  const email = `invitee.${Date.now()}@demo.hcp`;
  await signInAs(page, 'admin@demo.hcp');
  await page.goto('/patient-search');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Manage Accounts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Accounts' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit Jamie Lee' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Full name').fill('Robin Invitee');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('An office user belongs to a practice: choose one.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Practice' }).selectOption({ label: 'Morgan Family Medicine' });
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  expect(latestMailTo(email, 'invitation')).toMatch(/\/password-reset\/[\w-]{40,}/);

  const box = page.getByPlaceholder('Search by name, email, or practice');
  await box.fill(email);
  await box.press('Enter');
  const row = page.getByRole('row', { name: /Robin Invitee/ });
  await expect(row.getByRole('cell', { name: 'Invited' })).toBeVisible();
  await row.getByRole('button', { name: 'Edit Robin Invitee' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account of Robin Invitee' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(/^Disabled/).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('cell', { name: 'Disabled' })).toBeVisible();
});

test('only admins manage accounts', async ({ page }) => {
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/manage-accounts');
  await expect(page.getByText('Only administrators can manage accounts.')).toBeVisible();
});
