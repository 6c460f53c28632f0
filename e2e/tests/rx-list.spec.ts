import type { Page } from '@playwright/test';
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

const title = (page: Page) => page.getByRole('heading', { level: 1, name: /^New Prescriptions List \(\d+\)$/ });
const count = async (page: Page) => Number(/\((\d+)\)/.exec(await title(page).innerText())?.[1]);
const pad = (n: number) => String(n).padStart(2, '0');
const usDate = (d: Date) => `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;

async function typeDate(page: Page, label: string, text: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(text);
  await input.press('Tab');
}

test('the list: type a range, filter, sort, follow an order link, empty state; axe-clean', async ({ page, context }) => {
  await signInAs(page, 'admin@demo.hcp');
  await page.goto('/rx-list');
  await expect(title(page)).toBeVisible();
  await expectAccessible(page);

  // A range typed by keyboard: the last 200 days (the demo data spans 120).
  await typeDate(page, 'From', usDate(new Date(Date.now() - 200 * 86_400_000)));
  await page.getByRole('button', { name: 'Load Rx' }).click();
  await expect.poll(() => count(page)).toBeGreaterThan(200);
  const all = await count(page);
  // Long lists keep only the rows in view in the page.
  const rendered = await page.getByRole('region', { name: 'Prescriptions' }).getByRole('row').count();
  expect(rendered).toBeLessThan(all);

  // Sort by patient, then toggle.
  const patient = page.getByRole('columnheader', { name: /Patient/ });
  await patient.getByRole('button').click();
  await expect(patient).toHaveAttribute('aria-sort', 'ascending');
  await patient.getByRole('button').click();
  await expect(patient).toHaveAttribute('aria-sort', 'descending');
  await expectAccessible(page);

  // The order link opens the operations site in a new tab with the order number.
  const link = page.getByRole('link', { name: /^Order \d+/ }).first();
  const orderNumber = /Order (\d+)/.exec(await link.innerText())?.[1];
  await context.route('https://operations.hcp-portal.local/**', (route) => route.fulfill({ status: 200, body: 'ops' }));
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
  expect(tab.url()).toBe(`https://operations.hcp-portal.local/orders?orderNumber=${orderNumber}`);
  await tab.close();

  // A filter narrows the list.
  await page.getByLabel('Filter').selectOption('bausch');
  await page.getByRole('button', { name: 'Load Rx' }).click();
  await expect.poll(() => count(page)).toBeLessThan(all);

  // A range with nothing in it.
  await typeDate(page, 'From', '01/01/2020');
  await typeDate(page, 'To', '01/31/2020');
  await page.getByLabel('Filter').selectOption('none');
  await page.getByRole('button', { name: 'Load Rx' }).click();
  await expect(page.getByText('No Prescriptions found.')).toBeVisible();
  await expect(title(page)).toHaveText('New Prescriptions List (0)');
});

test('the pickers: choose a day with the calendar, and typed nonsense is flagged', async ({ page }) => {
  await signInAs(page, 'admin@demo.hcp');
  await page.goto('/rx-list');
  await expect(title(page)).toBeVisible();
  await page.getByLabel('From', { exact: true }).click();
  const calendar = page.locator('.react-datepicker');
  await expect(calendar).toBeVisible();
  // Days after today are out of range.
  const future = calendar.locator('.react-datepicker__day--disabled');
  if ((await future.count()) > 0) await expect(future.first()).toHaveAttribute('aria-disabled', 'true');
  await calendar
    .locator('.react-datepicker__day:not(.react-datepicker__day--disabled):not(.react-datepicker__day--outside-month)')
    .first()
    .click();
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(/^\d{2}\/01\/\d{4} /);
  await typeDate(page, 'To', '99/99/9999');
  await expect(page.getByText('Date input not valid.')).toBeVisible();
});
