/**
 * Covering prescribers (issue 23): a prescriber opens them from Preferences and names a colleague who covers for them
 * for some days, then ends it; office staff read who signs but change nothing. The practice's policy stays as it is:
 * other specs sign colleagues' requests as Dr. Morgan on this shared server (the server suite proves the policy).
 */
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

const isoDay = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

test('a prescriber names a colleague who covers for them, then ends it', async ({ page }) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/preferences');
  await page.getByRole('link', { name: 'Covering Prescribers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Covering Prescribers' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Any prescriber of the practice signs any request' })).toBeChecked();
  await page.getByRole('button', { name: 'Name a covering prescriber' }).click();
  const form = page.getByRole('form', { name: 'Name a covering prescriber' });
  // The button that opened the form is gone: focus is on the form's first field (issue 47).
  await expect(form.getByLabel('Covering prescriber')).toBeFocused();
  const coversFor = await form.getByLabel('Covers for').inputValue();
  expect(coversFor).not.toBe('');
  // The first colleague who is not the prescriber themselves.
  const colleague = await form
    .getByLabel('Covering prescriber')
    .locator('option')
    .evaluateAll(
      (options, own) =>
        options.find((o) => (o as HTMLOptionElement).value && (o as HTMLOptionElement).value !== own)?.textContent ?? '',
      coversFor,
    );
  await form.getByLabel('Covering prescriber').selectOption({ label: colleague });
  // The one day field (issue 47): typed as people write a day, with a calendar beside it that is reachable, clean
  // under axe and closed by Escape, back on its button.
  const [ly, lm, ld] = isoDay(3).split('-');
  await form.getByRole('textbox', { name: 'Last day' }).fill(`${lm}/${ld}/${ly}`);
  const calendarButton = form.getByRole('button', { name: 'Calendar: choose last day' });
  await calendarButton.click();
  await expect(calendarButton).toHaveAttribute('aria-expanded', 'true');
  await expect(form.locator('.react-datepicker')).toBeVisible();
  await expectAccessible(page, { bothWidths: true });
  await form.locator('.react-datepicker [tabindex="0"]').first().focus();
  await page.keyboard.press('Escape');
  await expect(calendarButton).toBeFocused();
  await expect(form.getByRole('textbox', { name: 'Last day' })).toHaveValue(`${lm}/${ld}/${ly}`);
  await expectAccessible(page, { bothWidths: true });
  await form.getByRole('button', { name: 'Save coverage' }).click();
  await expect(page.getByText(new RegExp(`${colleague} covers for`))).toBeVisible();

  const table = page.getByRole('table', { name: /^Coverages of / });
  const row = table.getByRole('row', { name: new RegExp(colleague) });
  await expect(row).toHaveCount(1);
  const [y, m, d] = isoDay(3).split('-');
  await expect(row).toContainText(`${m}/${d}/${y}`);
  // After the save, focus is on the new row (its End button), not on <body>.
  await expect(row.getByRole('button', { name: /^End / })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(new RegExp(`${colleague} no longer covers for`))).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Name a covering prescriber' })).toBeFocused();
});

test('office staff read who signs and are told who changes it', async ({ page }) => {
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/covering-prescribers');
  await expect(page.getByRole('heading', { level: 1, name: 'Covering Prescribers' })).toBeVisible();
  await expect(page.getByText('Only a prescriber of the practice can change who signs.')).toBeVisible();
  await expect(page.getByText('Who signs: Any prescriber of the practice signs any request.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Name a covering prescriber' })).toHaveCount(0);
  await expectAccessible(page, { bothWidths: true });
});
