/**
 * Issue 48, sign-in policy (decision 0060), on a server of its own (a practice's policy would reach every journey's
 * sign-in otherwise): Dr. Morgan requires a strong factor of his practice's people; the office's staff member signs
 * in through a mailed code to "Add a passkey or an authenticator app" and nothing else, adds a passkey (Chromium's
 * virtual authenticator), continues to the list, and cannot remove that last passkey while it is required.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD, expect, expectAccessible, test } from './fixtures.ts';
import { freePort, signInOn, startServer, stopServer } from './support/measuring-server.ts';
import { addPlatformAuthenticator } from './support/webauthn.ts';

const LEE = 'staff.lee@demo.hcp';

test('a practice requires a strong factor: its staff add one at their next sign-in before anything else', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hcp-policy-'));
  const port = await freePort();
  // A host name: WebAuthn takes no IP address as its relying party.
  const base = `http://localhost:${port}`;
  const server = await startServer(dataDir, port, { DEV_MAIL_LOG: 'on' });
  const mailedCode = () => {
    const mails = readFileSync(path.join(dataDir, 'dev-mail.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { to: string; kind: string; text: string });
    return /\b(\d{6})\b/.exec(mails.filter((m) => m.to === LEE && m.kind === 'mfa-code').at(-1)?.text ?? '')?.[1] ?? '';
  };
  try {
    await signInOn(page, base, 'dr.morgan@demo.hcp');
    await page.goto(`${base}/practice-preferences`);
    const policy = page.getByRole('region', { name: 'Two-step sign-in' });
    await expect(policy).toContainText('A passkey or an authenticator app is optional here.');
    await policy.getByRole('button', { name: 'Require a passkey or an authenticator app' }).click();
    await expect(page.getByText(/Everyone here must have a passkey or an authenticator app/)).toBeVisible();
    await expect(policy).toContainText('This practice requires a passkey or an authenticator app of its people.');

    // The staff member signs in: a mailed code first (the bridge), then only adding a factor.
    await page.evaluate(() => window.localStorage.clear());
    await addPlatformAuthenticator(context, page);
    await page.goto(`${base}/login`);
    await page.evaluate(() => window.localStorage.setItem('hcp.tutorialDismissed', 'true'));
    await page.getByLabel('Email').fill(LEE);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await expect(page).toHaveURL(/\/login-verify$/);
    await expect.poll(mailedCode).toMatch(/^\d{6}$/);
    await page.getByLabel('Verification code').fill(mailedCode());
    await page.getByLabel('Verification code').press('Enter');
    await expect(page).toHaveURL(/\/add-sign-in-factor$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Add a passkey or an authenticator app' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue to HCP Portal' })).toHaveCount(0);
    await expectAccessible(page, { bothWidths: true });
    const add = page.getByRole('form', { name: 'Add a passkey' });
    await add.getByLabel('Name for the new passkey').fill('Front desk laptop');
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByText('Passkey “Front desk laptop” added.')).toBeVisible();
    await page.getByRole('button', { name: 'Continue to HCP Portal' }).click();
    await expect(page).toHaveURL(/\/action-needed$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // The last strong factor stays while the practice requires one.
    await page.goto(`${base}/preferences`);
    const keys = page.getByRole('list', { name: 'Passkeys and security keys' });
    await keys.getByRole('button', { name: 'Remove the passkey Front desk laptop' }).click();
    const remove = page.getByRole('form', { name: 'Remove the passkey “Front desk laptop”' });
    await remove.getByLabel('Current password').fill(DEMO_PASSWORD);
    await remove.getByLabel('Current password').press('Enter');
    await expect(
      page.getByText('A passkey or an authenticator app is required for your account: add another before removing this one.'),
    ).toBeVisible();
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await expect(keys.getByRole('listitem')).toHaveCount(1);
  } finally {
    await stopServer(server);
  }
});
