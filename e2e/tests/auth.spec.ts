import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
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

/**
 * A copy of an access token signed with the server's own key (this server keeps it in its data folder) but
 * expiring at `exp`: an expired token made on purpose, so the test decides when it expires instead of waiting
 * out its life (issue 44).
 */
function resigned(token: string, exp: number): string {
  const key = readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'auth-signing-key'), 'utf8').trim();
  const payload = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify({ ...payload, iat: exp - 600, exp })).toString('base64url');
  return `${head}.${body}.${createHmac('sha256', key).update(`${head}.${body}`).digest('base64url')}`;
}

test('an expired access token is renewed silently', async ({ page }) => {
  await submitLogin(page, 'dr.morgan@demo.hcp');
  await expect(page.getByText('Dr. Alex Morgan')).toBeVisible();
  const session = await page.evaluate(() => ({
    accessToken: window.localStorage.getItem('hcp.accessToken') ?? '',
    userId: window.localStorage.getItem('hcp.userId') ?? '',
  }));
  const now = Math.floor(Date.now() / 1000);
  const expired = resigned(session.accessToken, now - 60);
  // The copy is signed right (the same copy still valid is accepted) and refused only for its expiry.
  const ask = (token: string) =>
    page.request.get('/api/mdo/v1/feature-flags', { headers: { authorization: `Bearer ${token}`, 'x-user-id': session.userId } });
  expect((await ask(resigned(session.accessToken, now + 60))).status()).toBe(200);
  expect((await ask(expired)).status()).toBe(401);

  await page.evaluate((token) => window.localStorage.setItem('hcp.accessToken', token), expired);
  await page.reload();
  await expect(page.getByText('Dr. Alex Morgan')).toBeVisible();
  await expect(page).toHaveURL(/\/action-needed$/);
  const after = await page.evaluate(() => window.localStorage.getItem('hcp.accessToken'));
  expect(after).not.toBe(expired);
  expect(after).not.toBe(session.accessToken);
  expect((await ask(after as string)).status()).toBe(200);
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
