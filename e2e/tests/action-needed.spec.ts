import type { Page } from '@playwright/test';
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

/** The number in a category link such as 'Refill authorizations (12)'. */
async function categoryCount(page: Page, label: string): Promise<number> {
  const text = await page
    .getByRole('navigation', { name: 'Categories' })
    .getByText(new RegExp(`^${label} \\(\\d+\\)$`))
    .innerText();
  return Number(/\((\d+)\)/.exec(text)?.[1]);
}

async function openList(page: Page) {
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/action-needed');
  await expect(page.getByRole('heading', { level: 1, name: 'Action Needed' })).toBeVisible();
}

/** Presses Tab until the focused element's accessible text matches, like a keyboard user would. */
async function tabTo(page: Page, pattern: RegExp, max = 80) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? (el.getAttribute('aria-label') ?? el.innerText ?? '') : '';
    });
    if (pattern.test(name)) return;
  }
  throw new Error(`no focusable element matching ${pattern} within ${max} tabs`);
}

test('the list shows categories with counts and is axe-clean; the nav tab carries the total', async ({ page }) => {
  await openList(page);
  const total = await categoryCount(page, 'All');
  expect(total).toBeGreaterThan(0);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Action Needed')).toContainText(String(total));
  await expectAccessible(page, { bothWidths: true });
});

test('keyboard only: authorise a refill by fax; the item leaves the list and the count drops', async ({ page }) => {
  await openList(page);
  await page.getByRole('link', { name: /^Refill authorizations/ }).click();
  const before = await categoryCount(page, 'Refill authorizations');
  // The item after the one decided: focus goes on to it after the decision (issue 47).
  const refillLinks = page.getByRole('main').getByRole('link', { name: /^Refill authorization: / });
  const nextName = await refillLinks.nth(1).getAttribute('aria-label');
  await page.locator('body').focus();
  await tabTo(page, /^Refill authorization: /);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Refill authorization: / })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await expect(page.getByText('Prescription received by the pharmacy')).toBeVisible();
  await expectAccessible(page, { bothWidths: true });
  await tabTo(page, /^Authorize by fax$/);
  await page.keyboard.press('Enter');
  // What goes to the pharmacy, shown before it goes; confirmed by keyboard too.
  const confirm = page.getByRole('dialog', { name: 'Send this refill authorization by fax?' });
  await expect(confirm).toContainText('To the pharmacy, by fax:');
  await tabTo(page, /^Send by fax$/);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Refill authorized by fax.')).toBeVisible();
  // Back to the list as it was: still in the category the prescriber was working through.
  await expect(page).toHaveURL(/\/action-needed\?category=refillAuth$/);
  // Focus is on the next request, where the prescriber goes on from, not back at the top of the page.
  await expect(page.getByRole('link', { name: nextName ?? '', exact: true })).toBeFocused();
  await expectAccessible(page, { bothWidths: true });
  await expect.poll(() => categoryCount(page, 'Refill authorizations')).toBe(before - 1);
});

test('alternative medication: print the request in a new window, then send a choice', async ({ page }) => {
  await openList(page);
  await page.getByRole('link', { name: /^Alternative medications/ }).click();
  const before = await categoryCount(page, 'Alternative medications');
  await page
    .getByRole('link', { name: /^Alternative medication: / })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /^Alternative medication: / })).toBeVisible();
  await expectAccessible(page, { bothWidths: true });
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Print request' }).click()]);
  await expect(popup.getByRole('heading', { level: 1, name: 'Alternative medication request' })).toBeVisible();
  await expect(popup.getByText('Prescriber signature')).toBeVisible();
  await popup.close();
  await page.getByRole('radio').first().check();
  await page.getByRole('button', { name: 'Send to pharmacy' }).click();
  await page
    .getByRole('dialog', { name: 'Send this choice to the pharmacy?' })
    .getByRole('button', { name: 'Send choice' })
    .click();
  await expect(page.getByText(/^Sent: /)).toBeVisible();
  // The list comes back in the same category.
  await expect(page).toHaveURL(/\/action-needed\?category=altMed$/);
  await expect.poll(() => categoryCount(page, 'Alternative medications')).toBe(before - 1);
});

test('prior authorization: dismiss with the notice', async ({ page }) => {
  await openList(page);
  await page.getByRole('link', { name: /^Prior authorizations/ }).click();
  const before = await categoryCount(page, 'Prior authorizations');
  await page
    .getByRole('link', { name: /^Prior authorization: / })
    .first()
    .click();
  await page.getByRole('button', { name: 'Dismiss prior authorization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dismiss this prior authorization?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, { bothWidths: true });
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('Prior authorization dismissed.')).toBeVisible();
  // The list comes back in the same category.
  await expect(page).toHaveURL(/\/action-needed\?category=priorAuth$/);
  await expect.poll(() => categoryCount(page, 'Prior authorizations')).toBeLessThan(before);
});

test('phone exception: a wrong shape is refused, the corrected number clears it', async ({ page }) => {
  await openList(page);
  await page.getByRole('link', { name: /^Phone exceptions/ }).click();
  const before = await categoryCount(page, 'Phone exceptions');
  await page
    .getByRole('link', { name: /^Phone number exception: / })
    .first()
    .click();
  const input = page.getByLabel('Correct phone number, as (555) 555-5555');
  await input.fill('555-12');
  await page.getByRole('button', { name: 'Save phone number' }).click();
  await expect(page.getByText('Enter a phone number as (555) 555-5555.')).toBeVisible();
  await input.fill('(614) 555-0199');
  await page.getByRole('button', { name: 'Save phone number' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this phone number to the pharmacy?' });
  await expect(confirm).toContainText('614.555.0199');
  await confirm.getByRole('button', { name: 'Send number' }).click();
  await expect(page.getByText('Phone number corrected.')).toBeVisible();
  // The list comes back in the same category.
  await expect(page).toHaveURL(/\/action-needed\?category=phoneException$/);
  await expect.poll(() => categoryCount(page, 'Phone exceptions')).toBeLessThan(before);
});
