/**
 * Minimum necessary access in the browser (issue 18, decision 0020): the provider's admin sees counts per
 * practice, opens read-only support access with a reason, sees the practice's requests without any action,
 * ends it; the practice sees who opened it and why; office staff prepare but are not offered to sign.
 */
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

test('the provider admin: counts per practice, a read-only support window, then back to counts', async ({ page, browser }) => {
  await signInAs(page, 'admin@demo.hcp');
  // Patient screens say where patients are instead of showing an empty result.
  await page.goto('/patient-search');
  await expect(page.getByText(/Patient details are shown to each practice’s own people/)).toBeVisible();
  await expect(page.getByLabel('Search patients')).toHaveCount(0);
  await page.goto('/action-needed');
  await expect(page.getByRole('heading', { level: 1, name: 'Action Needed' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Practices by requests waiting' });
  const morgan = table.getByRole('row', { name: /Morgan Family Medicine/ });
  await expect(morgan).toBeVisible();
  // Counts only: no patient card, no request link.
  await expect(page.getByRole('link', { name: /^Refill authorization: / })).toHaveCount(0);
  await expectAccessible(page, { bothWidths: true });

  await morgan.getByRole('button', { name: 'Support access to Morgan Family Medicine' }).click();
  const dialog = page.getByRole('dialog', { name: 'Support access to Morgan Family Medicine' });
  await dialog.getByLabel('Why do you need access?').fill('The office called about a missing refill fax.');
  await dialog.getByLabel('For').selectOption('15');
  await expectAccessible(page, { bothWidths: true });
  await dialog.getByRole('button', { name: 'Open read-only access' }).click();

  const banner = page.getByRole('region', { name: 'Support access' });
  await expect(banner).toContainText('Support access to Morgan Family Medicine');
  await expect(banner).toContainText('read-only until');
  // Said, and focus not lost with the dialog and the practice list it came from (issue 47).
  await expect(page.getByText(/^Support access to Morgan Family Medicine is open, read-only, until /)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.getByRole('link', { name: /^Refill authorizations/ }).click();
  await page
    .getByRole('link', { name: /^Refill authorization: / })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /^Refill authorization: / })).toBeVisible();
  await expect(page.getByText('Support access is read-only: the practice’s own people act on this request.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Authorize|Postpone|Deny/ })).toHaveCount(0);
  await expectAccessible(page, { bothWidths: true });

  // The practice's own people see who opened it and why.
  const context = await browser.newContext();
  const lee = await context.newPage();
  await signInAs(lee, 'staff.lee@demo.hcp');
  await lee.goto('/practice-preferences');
  const log = lee.getByRole('table', { name: 'Support access to this practice' });
  await expect(log.getByRole('row', { name: /The office called about a missing refill fax\./ }).first()).toContainText(
    'Avery Admin',
  );
  await expectAccessible(lee);
  await context.close();

  await banner.getByRole('button', { name: 'End support access' }).click();
  await expect(page.getByText(/^Support access to .+ ended: its patients are no longer shown\.$/)).toBeVisible();
  await expect(banner).toHaveCount(0);
  // Its button went with the banner: focus is on the screen's heading, not lost (issue 47).
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.goto('/action-needed');
  await expect(page.getByRole('table', { name: 'Practices by requests waiting' })).toBeVisible();
});

test('office staff prepare: a refill can be postponed, not authorised or denied', async ({ page }) => {
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/action-needed');
  await page.getByRole('link', { name: /^Refill authorizations/ }).click();
  await page
    .getByRole('link', { name: /^Refill authorization: / })
    .last()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: /^Refill authorization: / })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Postpone' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Authorize by fax' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Deny refill' })).toHaveCount(0);
  await expect(page.getByText(/A prescriber of the practice authorizes or denies refills/)).toBeVisible();
  await expectAccessible(page, { bothWidths: true });
});
