import { DEMO_PASSWORD, expect, expectAccessible, signInAs, test } from './fixtures.ts';

const TUTORIAL = 'Please watch this short video on how to use the HCP portal';
const headerColour = (page: import('@playwright/test').Page) =>
  page
    .locator('header')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

test('the tutorial opens after sign-in; "Do not show this again" keeps it closed; the header button opens it by keyboard', async ({
  page,
}) => {
  await signInAs(page, 'dr.morgan@demo.hcp', { showTutorial: true });
  await page.goto('/patient-search');
  const dialog = page.getByRole('dialog', { name: TUTORIAL });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('video')).toHaveAttribute('src', '/media/tutorial.mp4');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Do not show this again' }).click();
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('hcp.tutorialDismissed'))).toBe('true');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'All Patients' })).toBeVisible();
  await expect(dialog).toBeHidden();

  // From the header, by keyboard: no "Do not show this again" (it did not open by itself); Escape returns focus.
  const button = page.getByRole('button', { name: 'Tutorial Video' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Do not show this again' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
});

test('closing the tutorial stops it opening again in this session', async ({ page }) => {
  await signInAs(page, 'staff.lee@demo.hcp', { showTutorial: true });
  await page.goto('/patient-search');
  const dialog = page.getByRole('dialog', { name: TUTORIAL });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'All Patients' })).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('hcp.tutorialDismissed'))).toBeNull();
});

test('Contact shows the support lines; a VAM practice user sees their account manager', async ({ page, browser }) => {
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/patient-search');
  await page.getByRole('button', { name: 'Contact' }).click();
  const support = page.getByRole('dialog', { name: 'Contact support' });
  await expect(support).toContainText('(614) 555-0100');
  await expect(support.getByRole('link', { name: 'support@hcp-portal.example' })).toHaveAttribute(
    'href',
    'mailto:support@hcp-portal.example',
  );
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(support).toBeHidden();

  const context = await browser.newContext();
  const vamPage = await context.newPage();
  await signInAs(vamPage, 'vam.staff@demo.hcp');
  await vamPage.goto('/patient-search');
  await vamPage.getByRole('button', { name: 'Contact' }).click();
  const manager = vamPage.getByRole('dialog', { name: 'Your account manager' });
  await expect(manager).toContainText('Jordan Rivera');
  await expect(manager).toContainText('Tel: (614) 555-0100 option 1');
  await expect(manager).toContainText('Columbus, OH');
  await expectAccessible(vamPage);
  await context.close();
});

test('a user with Harrow access switches brands: title, colour and the way back; the choice survives a reload', async ({
  page,
}) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/patient-search');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'HCP Portal' })).toBeVisible();
  expect(await headerColour(page)).toBe('rgb(11, 92, 171)');
  await expect(page).toHaveTitle('All Patients · HCP Portal');

  await banner.getByRole('button', { name: 'Access Harrow' }).click();
  await expect(banner.getByRole('link', { name: 'Harrow HCP Portal' })).toBeVisible();
  await expect.poll(() => headerColour(page)).toBe('rgb(109, 32, 119)');
  await expect(page).toHaveTitle('All Patients · Harrow HCP Portal');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon-harrow.svg');
  await expectAccessible(page);

  await page.reload();
  await expect(banner.getByRole('link', { name: 'Harrow HCP Portal' })).toBeVisible();
  await banner.getByRole('button', { name: 'Back to HCP Portal' }).click();
  await expect(banner.getByRole('link', { name: 'HCP Portal', exact: true })).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Access Harrow' })).toBeVisible();
});

test('a user without Harrow access cannot reach it, even with a stored choice', async ({ page }) => {
  // The VAM practice has no Harrow access (Morgan Family Medicine, of dr.morgan and staff.lee, has).
  await signInAs(page, 'vam.staff@demo.hcp');
  await page.addInitScript(() => localStorage.setItem('hcp.brand', 'harrow'));
  await page.goto('/patient-search');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('button', { name: 'Tutorial Video' })).toBeVisible();
  await expect(banner.getByRole('link', { name: 'HCP Portal', exact: true })).toBeVisible();
  await expect(banner.getByRole('button', { name: /^Access / })).toHaveCount(0);
  await expect(banner.getByRole('button', { name: /^Back to / })).toHaveCount(0);
  expect(await headerColour(page)).toBe('rgb(11, 92, 171)');
});

test('on the Harrow hostname the brand is forced: no way back, Prescribe Rx for its prescriber', async ({ page, baseURL }) => {
  const harrowUrl = (baseURL ?? '').replace('://localhost', '://harrow.localhost');
  // Node cannot resolve *.localhost (Chromium can): the sign-in call names the Harrow host in its header.
  const res = await page.request.post('/auth-service/login', {
    headers: { host: new URL(harrowUrl).host },
    data: {
      email: 'dr.kim@harrow.demo.hcp',
      username: 'dr.kim@harrow.demo.hcp',
      password: DEMO_PASSWORD,
      dashboard: 'MD Dashboard',
    },
  });
  const { jwtToken } = await res.json();
  await page.addInitScript((tokens) => {
    localStorage.setItem('hcp.accessToken', tokens.accessToken);
    localStorage.setItem('hcp.refreshToken', tokens.refreshToken);
    localStorage.setItem('hcp.userId', tokens.userID);
    localStorage.setItem('hcp.tutorialDismissed', 'true');
    localStorage.setItem('hcp.brand', 'main');
  }, jwtToken);
  await page.goto(`${harrowUrl}/patient-search`);
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Harrow HCP Portal' })).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Dr. Daniel Kim' })).toHaveCount(0);
  await expect(banner.getByText('Dr. Daniel Kim')).toBeVisible();
  await expect(banner.getByRole('button', { name: /^Back to / })).toHaveCount(0);
  await expect(banner.getByRole('link', { name: 'Prescribe Rx' })).toBeVisible();
  await expectAccessible(page);
});

test('admins get the username link and the Manage Accounts footer link; others get plain text', async ({ page, browser }) => {
  await signInAs(page, 'admin@demo.hcp');
  await page.goto('/patient-search');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Avery Admin' })).toHaveAttribute('href', '/manage-accounts');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Manage Accounts' })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Use' })).toBeVisible();

  const context = await browser.newContext();
  const other = await context.newPage();
  await signInAs(other, 'dr.morgan@demo.hcp');
  await other.goto('/patient-search');
  await expect(other.getByRole('banner').getByText('Dr. Alex Morgan')).toBeVisible();
  await expect(other.getByRole('banner').getByRole('link', { name: 'Dr. Alex Morgan' })).toHaveCount(0);
  await expect(other.getByRole('contentinfo').getByRole('link', { name: 'Manage Accounts' })).toHaveCount(0);
  await context.close();
});

test('every main screen is axe-clean in the Harrow brand too', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.addInitScript(() => localStorage.setItem('hcp.brand', 'harrow'));
  for (const [path, heading] of [
    ['/action-needed', /Action Needed/],
    ['/patient-search', /All Patients/],
    ['/new-comments', /New Comments/],
    ['/rx-list', /New Prescriptions List/],
    ['/preferences', /Preferences/],
    ['/practice-preferences', /Practice Preferences/],
    ['/terms-of-use', /Terms/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('banner').getByRole('link', { name: 'Harrow HCP Portal' })).toBeVisible();
    await expectAccessible(page);
  }
});

test('the sign-in page on the Harrow hostname is branded and axe-clean', async ({ page, baseURL }) => {
  await page.goto(`${(baseURL ?? '').replace('://localhost', '://harrow.localhost')}/login`);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Harrow HCP Portal' })).toBeVisible();
  await expect.poll(() => headerColour(page)).toBe('rgb(109, 32, 119)');
  await expect(page).toHaveTitle(/Harrow HCP Portal$/);
  await expectAccessible(page);
});
