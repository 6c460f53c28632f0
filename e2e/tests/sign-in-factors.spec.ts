/**
 * Issue 48: an authenticator app and recovery codes, as a person sets them up and signs in with them. The codes are
 * computed here from the key the page shows (otpauth, RFC 6238), not mocked. The account is a new one, invited by
 * the admin, so no other journey's sign-in meets its second step.
 */
import { Secret, TOTP } from 'otpauth';
import { apiSession, expect, expectAccessible, latestMailTo, skipTutorial, test } from './fixtures.ts';

test.beforeEach(({ page }) => skipTutorial(page));

const PASSWORD = 'factor-e2e-password-2026';

async function signInByForm(page: import('@playwright/test').Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
}

test('a user sets up an authenticator app, signs in with it and with a recovery code, then removes it', async ({ page }) => {
  // A new account: invited by the admin, its password chosen through the invitation's link.
  const email = `factor.${Date.now()}@demo.hcp`;
  const admin = await apiSession(page, 'admin@demo.hcp');
  const invited = await page.request.post('/api/mdo/v1/accounts', {
    headers: admin.headers,
    data: { userName: 'Casey Factor', email, role: 'provider.sales', mdOfficeId: null },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = /\/password-reset\/([\w-]+)/.exec(latestMailTo(email, 'invitation'))?.[1];
  const chosen = await page.request.put('/api/mdo/v1/update-password', { data: { token, password: PASSWORD } });
  expect(chosen.status()).toBe(200);

  await signInByForm(page, email);
  await expect(page).toHaveURL(/\/action-needed$/);
  await page.goto('/preferences');
  const section = page.getByRole('region', { name: 'Two-step sign-in' });
  await expect(section.getByText(/^Authenticator app:/)).toContainText('Authenticator app: off.');
  await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const setup = section.getByRole('form', { name: 'Set up an authenticator app' });
  await expect(setup.getByRole('heading', { name: 'Set up an authenticator app' })).toBeFocused();
  await expect(setup.getByRole('img', { name: /QR code of your HCP Portal key/ })).toBeVisible();
  await expectAccessible(page, { bothWidths: true });

  // What a person types into their app when it cannot scan: the key as the page shows it.
  const key = (await setup.locator('code').innerText()).replace(/\s/g, '');
  const totp = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' });
  const field = setup.getByLabel('Code from your authenticator app');
  await field.fill('000000' === totp.generate() ? '111111' : '000000');
  await field.press('Enter');
  await expect(setup.getByText(/That code did not match/)).toBeVisible();
  await expect(field).toBeFocused();
  await field.fill(totp.generate());
  await field.press('Enter');

  const codes = section.getByRole('list', { name: 'Recovery codes' });
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const recovery = await codes.getByRole('listitem').allInnerTexts();
  expect(latestMailTo(email, 'sign-in-factor')).toContain('An authenticator app was added');
  await expectAccessible(page, { bothWidths: true });
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText(/^Authenticator app:/)).toContainText('Recovery codes left: 10 of 10.');

  // Signing in now asks for the app; a code of the next 30 seconds is within the window and not yet used.
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInByForm(page, email);
  await expect(page).toHaveURL(/\/login-verify$/);
  await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
  await expect(page.getByLabel('Code from your authenticator app')).toBeFocused();
  await expectAccessible(page, { bothWidths: true });
  await page.getByLabel('Code from your authenticator app').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByLabel('Code from your authenticator app').press('Enter');
  await expect(page).toHaveURL(/\/action-needed$/);

  // A lost phone: a recovery code instead, each once; its use is mailed.
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInByForm(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await expect(page.getByLabel('Recovery code')).toBeFocused();
  await page.getByLabel('Recovery code').fill((recovery[0] as string).toLowerCase());
  await page.getByLabel('Recovery code').press('Enter');
  await expect(page).toHaveURL(/\/action-needed$/);
  expect(latestMailTo(email, 'sign-in-factor')).toContain('9 of 10 are left');

  // Removed with the password: sign-in codes come by e-mail again (this account mails none: it signs straight in).
  await page.goto('/preferences');
  await section.getByRole('button', { name: 'Remove the authenticator app' }).click();
  const remove = section.getByRole('form', { name: 'Remove the authenticator app' });
  await expect(remove.getByLabel('Current password')).toBeFocused();
  await remove.getByLabel('Current password').fill(PASSWORD);
  await remove.getByLabel('Current password').press('Enter');
  await expect(section.getByText('Authenticator app removed. Sign-in codes come by e-mail again.')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Set up an authenticator app' })).toBeFocused();
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInByForm(page, email);
  await expect(page).toHaveURL(/\/action-needed$/);
});
