/**
 * Issue 48: an authenticator app and recovery codes, as a person sets them up and signs in with them. The codes are
 * computed here from the key the page shows (otpauth, RFC 6238), not mocked. The account is a new one, invited by
 * the admin, so no other journey's sign-in meets its second step.
 */
import { Secret, TOTP } from 'otpauth';
import { apiSession, expect, expectAccessible, latestMailTo, skipTutorial, test } from './fixtures.ts';
import { addPlatformAuthenticator } from './support/webauthn.ts';

test.beforeEach(({ page }) => skipTutorial(page));

const PASSWORD = 'factor-e2e-password-2026';

async function signInByForm(page: import('@playwright/test').Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
}

/** A new account: invited by the admin, its password chosen through the invitation's link. */
async function newAccount(page: import('@playwright/test').Page): Promise<string> {
  const email = `factor.${Date.now()}.${Math.floor(Math.random() * 1e6)}@demo.hcp`;
  const admin = await apiSession(page, 'admin@demo.hcp');
  const invited = await page.request.post('/api/mdo/v1/accounts', {
    headers: admin.headers,
    data: { userName: 'Casey Factor', email, role: 'provider.sales', mdOfficeId: null },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = /\/password-reset\/([\w-]+)/.exec(latestMailTo(email, 'invitation'))?.[1];
  const chosen = await page.request.put('/api/mdo/v1/update-password', { data: { token, password: PASSWORD } });
  expect(chosen.status()).toBe(200);
  return email;
}

test('a user sets up an authenticator app, signs in with it and with a recovery code, then removes it', async ({ page }) => {
  const email = await newAccount(page);
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

test('a user adds a passkey (Chromium’s virtual authenticator), renames it, signs in with it and by it alone, and removes it', async ({
  page,
  context,
}) => {
  const email = await newAccount(page);
  const { cdp, authenticatorId } = await addPlatformAuthenticator(context, page);

  await signInByForm(page, email);
  await expect(page).toHaveURL(/\/action-needed$/);
  await page.goto('/preferences');
  const section = page.getByRole('region', { name: 'Two-step sign-in' });
  const add = section.getByRole('form', { name: 'Add a passkey' });
  await add.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(add.getByText('Name the passkey, for example “Work laptop”.')).toBeVisible();
  await add.getByLabel('Name for the new passkey').fill('Work laptop');
  await add.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByText('Passkey “Work laptop” added.')).toBeVisible();
  const keys = section.getByRole('list', { name: 'Passkeys and security keys' });
  await expect(keys.getByRole('listitem')).toHaveCount(1);
  await expect(keys).toContainText('Work laptop');
  await expect(keys.getByRole('button', { name: 'Remove the passkey Work laptop' })).toBeFocused();
  expect(latestMailTo(email, 'sign-in-factor')).toContain('A passkey named “Work laptop” was added');
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
  await expectAccessible(page, { bothWidths: true });

  // Renamed in place: Enter saves; focus comes back to the row's Rename.
  await keys.getByRole('button', { name: 'Rename the passkey Work laptop' }).click();
  const rename = keys.getByRole('form', { name: 'Rename the passkey Work laptop' });
  await expect(rename.getByLabel('New name')).toBeFocused();
  await rename.getByLabel('New name').fill('Office laptop');
  await rename.getByLabel('New name').press('Enter');
  await expect(section.getByText('Passkey renamed “Office laptop”.')).toBeVisible();
  await expect(keys.getByRole('button', { name: 'Rename the passkey Office laptop' })).toBeFocused();

  // Signing in now asks for the passkey; the browser's ceremony answers it.
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInByForm(page, email);
  await expect(page).toHaveURL(/\/login-verify$/);
  await expect(page.getByText('Use your passkey or security key: your browser will ask for it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use your passkey' })).toBeFocused();
  await expectAccessible(page, { bothWidths: true });
  await page.getByRole('button', { name: 'Use your passkey' }).press('Enter');
  await expect(page).toHaveURL(/\/action-needed$/);

  // Or the passkey alone, instead of the e-mail and password: the key says whose it is.
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/action-needed$/);
  await expect(page.getByText('Casey Factor')).toBeVisible();

  // Removed with the password: it signs in no more, and the account signs straight in again.
  await page.goto('/preferences');
  await keys.getByRole('button', { name: 'Remove the passkey Office laptop' }).click();
  const remove = section.getByRole('form', { name: 'Remove the passkey “Office laptop”' });
  await remove.getByLabel('Current password').fill(PASSWORD);
  await remove.getByLabel('Current password').press('Enter');
  await expect(section.getByText('Passkey “Office laptop” removed.')).toBeVisible();
  await expect(section.getByText('No passkey yet.')).toBeVisible();
  await expect(add.getByLabel('Name for the new passkey')).toBeFocused();
  await page.getByRole('link', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInByForm(page, email);
  await expect(page).toHaveURL(/\/action-needed$/);
});
