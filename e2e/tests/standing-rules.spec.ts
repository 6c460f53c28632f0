/**
 * Standing rules (issue 23): a prescriber opens them from Preferences, previews a rule (what it would answer now),
 * saves it, turns it off and deletes it; office staff read the rules but get no form. The rule here matches no
 * waiting request: other specs count Dr. Morgan's queue on this shared server (the server suite proves what a rule
 * answers).
 */
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

test('a prescriber previews, saves, turns off and deletes a standing rule', async ({ page }) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/preferences');
  await page.getByRole('link', { name: 'Standing Rules' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Standing Rules' })).toBeVisible();
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New rule' });
  // The button that opened the form is gone: focus is in the form (issue 47).
  await expect(form.getByLabel('Rule name')).toBeFocused();
  const name = `E2E rule ${Date.now()}`;
  await form.getByLabel('Rule name').fill(name);
  // Nothing says what the rule is about: refused at the drug field before any call.
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(form.getByText(/Name a drug or a patient/)).toBeVisible();
  await form.getByLabel(/Drug name/).fill('Zzyzxal');
  await form.getByRole('radio', { name: 'Needs a visit first — deny with this reason' }).check();
  await form.getByLabel('Note to the pharmacy (optional)').fill('Please book a visit first.');
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByRole('status')).toContainText('Would answer no waiting request now');
  await expect(form.getByRole('button', { name: 'Preview' })).toBeFocused();
  await expectAccessible(page, { bothWidths: true });
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText('Rule saved. It answers matching requests as they arrive.')).toBeVisible();
  await expect(page.getByRole('button', { name: `Change ${name}` })).toBeFocused();

  const row = page.getByRole('table', { name: 'Standing rules' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Needs a visit first');
  await expect(row).toContainText('Zzyzxal');
  await expect(row).toContainText('0 requests');
  await expect(row).toContainText('On');
  await row.getByRole('button', { name: `Turn off ${name}` }).click();
  await expect(row).toContainText('Off');
  await expectAccessible(page, { bothWidths: true });

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the rule?' });
  await dialog.getByRole('button', { name: 'Delete rule' }).click();
  await expect(page.getByText(`“${name}” is deleted.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New rule' })).toBeFocused();
});

test('office staff read the rules and are told who makes them', async ({ page }) => {
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/standing-rules');
  await expect(page.getByRole('heading', { level: 1, name: 'Standing Rules' })).toBeVisible();
  await expect(page.getByText('Only a prescriber of the practice can make or change its rules.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New rule' })).toHaveCount(0);
  await expectAccessible(page, { bothWidths: true });
});
