import {
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  latestFaxLink,
  signInAs,
  simulatePharmacy,
  skipTutorial,
  test,
} from './fixtures.ts';

/**
 * Office notices by fax (issue 20): the admin sets a practice to fax in Manage Communications; the pharmacy sends a
 * request; the practice's cover sheet (a PDF from the dev fax transport) carries a one-time link; someone of the
 * practice opens it signed out, signs in, and lands on Action Needed; the link does not open twice.
 */
test('a fax cover sheet’s one-time link opens Action Needed after sign-in, once', async ({ page, browser, baseURL }) => {
  const setMode = async (mode: 'Fax' | 'Off (do not contact)') => {
    await page.goto('/manage-comms/practices');
    const box = page.getByPlaceholder('Search by HCP, NPI, or Practice');
    await box.fill('Morgan Family');
    await box.press('Enter');
    await page.getByRole('link', { name: /^Open Morgan Family Medicine/ }).click();
    await page.getByRole('navigation', { name: 'Practice' }).getByRole('link', { name: 'Preferences' }).click();
    await page.getByRole('group', { name: 'Communication mode' }).getByRole('radio', { name: mode, exact: true }).check();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await expect(page.getByText('Communication preferences saved.')).toBeVisible();
  };
  await signInAs(page, 'admin@demo.hcp');
  const since = Date.now();
  await setMode('Fax');
  try {
    simulatePharmacy(baseURL as string, 'refill-request');
    await expect.poll(() => latestFaxLink(since), { timeout: 15_000 }).not.toBeNull();
    const link = new URL(latestFaxLink(since) as string);
    expect(link.pathname).toMatch(/^\/notice\/[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);

    // Typed from paper by someone of the practice who is not signed in.
    const office = await (await browser.newContext({ baseURL })).newPage();
    await skipTutorial(office);
    await office.goto(link.pathname);
    await expect(office).toHaveURL(/\/login$/);
    await office.getByLabel('Email').fill('staff.lee@demo.hcp');
    await office.getByLabel('Password').fill(DEMO_PASSWORD);
    await office.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(office).toHaveURL(/\/action-needed$/);

    await office.goto(link.pathname);
    await expect(office.getByRole('alert')).toHaveText(
      'This link has already been used or has expired. Open Action Needed to see your practice’s requests.',
    );
    await expectAccessible(office);
    await office.getByRole('link', { name: 'Go to Action Needed' }).click();
    await expect(office).toHaveURL(/\/action-needed$/);
  } finally {
    await setMode('Off (do not contact)');
  }
});
