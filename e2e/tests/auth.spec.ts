import { E2E_ACCESS_TOKEN_TTL_SECONDS } from '../playwright.config.ts';
import { DEMO_PASSWORD, expect, expectAccessible, latestMfaCode, latestResetPath, skipTutorial, test } from './fixtures.ts';

// These journeys are about signing in; the tutorial that opens after sign-in has its own spec.
test.beforeEach(({ page }) => skipTutorial(page));

async function submitLogin(page: import('@playwright/test').Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

test('a prescriber without MFA signs in and sees their name in the header', async ({ page }) => {
  await submitLogin(page, 'dr.morgan@demo.hcp');
  await expect(page).toHaveURL(/\/action-needed$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Action Needed' })).toBeVisible();
  await expect(page.getByText('Dr. Alex Morgan')).toBeVisible();
  // Not an admin: the name is text, not a link (spec §2).
  await expect(page.getByRole('link', { name: 'Dr. Alex Morgan' })).toHaveCount(0);
  await expectAccessible(page);
});

test('a wrong password shows the server’s message and stays on login', async ({ page }) => {
  await submitLogin(page, 'staff.lee@demo.hcp', 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Email or password is incorrect.');
  await expect(page).toHaveURL(/\/login$/);
});

test('MFA: wrong code text, right code signs in, remembered device skips MFA next time', async ({ page }) => {
  await submitLogin(page, 'dr.patel@demo.hcp');
  await expect(page).toHaveURL(/\/login-verify$/);
  await expect(page.getByText('d******l@demo.hcp')).toBeVisible();
  await expectAccessible(page);

  const code = latestMfaCode('dr.patel@demo.hcp');
  await page.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect verification code.');

  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel('Remember this device for 30 days').check();
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/action-needed$/);
  await expect(page.getByText('Dr. Priya Patel')).toBeVisible();

  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, 'dr.patel@demo.hcp');
  await expect(page).toHaveURL(/\/action-needed$/);
});

test('an expired access token is renewed silently', async ({ page }) => {
  await submitLogin(page, 'dr.morgan@demo.hcp');
  await expect(page.getByText('Dr. Alex Morgan')).toBeVisible();
  const before = await page.evaluate(() => window.localStorage.getItem('hcp.accessToken'));
  await page.waitForTimeout((E2E_ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
  await page.reload();
  await expect(page.getByText('Dr. Alex Morgan')).toBeVisible();
  await expect(page).toHaveURL(/\/action-needed$/);
  const after = await page.evaluate(() => window.localStorage.getItem('hcp.accessToken'));
  expect(after).not.toBe(before);
});

test('log out clears the session on this device and on the server', async ({ page }) => {
  await submitLogin(page, 'admin@demo.hcp');
  await expect(page).toHaveURL(/\/action-needed$/);
  // Admins get their name as a link to manage accounts.
  await expect(page.getByRole('link', { name: 'Avery Admin' })).toHaveAttribute('href', '/manage-accounts');
  const session = await page.evaluate(() => ({
    accessToken: window.localStorage.getItem('hcp.accessToken') ?? '',
    userId: window.localStorage.getItem('hcp.userId') ?? '',
  }));
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('hcp.accessToken'))).toBeNull();
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/mdo/v1/feature-flags', {
        headers: { authorization: `Bearer ${session.accessToken}`, 'x-user-id': session.userId },
      });
      return res.status();
    })
    .toBe(401);
  await page.goto('/action-needed');
  await expect(page).toHaveURL(/\/login$/);
});

test('password reset: request, mailed link, new password, then sign in with it', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/password-reset-request$/);
  await page.getByLabel('Email').fill('sales@demo.hcp');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for that e-mail');
  await expectAccessible(page);

  await page.goto(latestResetPath('sales@demo.hcp'));
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('sales-e2e-password-2026');
  await page.getByLabel('Repeat the new password').fill('sales-e2e-password-2026');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password has been changed. Sign in with your new password.');

  await submitLogin(page, 'sales@demo.hcp', 'sales-e2e-password-2026');
  await expect(page).toHaveURL(/\/action-needed$/);

  // Signed in, the same user changes the password again from Preferences (current password required).
  await page.goto('/preferences');
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('sales-e2e-password-2026');
  await form.getByLabel('New password', { exact: true }).fill('sales-changed-password-2026');
  await form.getByLabel('Repeat the new password').fill('sales-changed-password-2026');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password has been changed. Your other sessions were signed out.')).toBeVisible();
  await expect(page.getByText('No device skips the verification code.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, 'sales@demo.hcp', 'sales-changed-password-2026');
  await expect(page).toHaveURL(/\/action-needed$/);
});

test('an expired or used reset link goes to the expired page', async ({ page }) => {
  await page.goto('/password-reset/not-a-real-token');
  await expect(page).toHaveURL(/\/password-reset-expired$/);
  await expect(page.getByRole('heading', { level: 1, name: 'This reset link has expired' })).toBeVisible();
  await page.getByRole('link', { name: 'Request a new reset link' }).click();
  await expect(page).toHaveURL(/\/password-reset-request$/);
});

test('MFA: asking for a new code too soon says how long to wait', async ({ page }) => {
  await submitLogin(page, 'dr.patel@demo.hcp');
  await expect(page).toHaveURL(/\/login-verify$/);
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Please wait' })).toHaveText(
    /^Please wait \d+ seconds before asking for another code\.$/,
  );
});

test('a Google landing with a token the portal does not accept explains it and links back to sign in', async ({ page }) => {
  await page.goto('/google/not-a-google-token');
  // The e2e server has no Google client id configured, so the button is hidden and the call is refused.
  await expect(page.getByRole('alert')).toHaveText('Google sign-in is not enabled for this portal.');
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Or sign in with Google' })).toHaveCount(0);
});
