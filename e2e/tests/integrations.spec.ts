/**
 * Pharmacy systems (issue 19): an admin registers a system with its public key set and scopes from the footer's
 * "Pharmacy Systems", reads its client id, sees it listed and disables it; mistakes are shown at their fields.
 */
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

const JWKS = JSON.stringify({
  keys: [
    {
      kty: 'RSA',
      kid: 'e2e-1',
      alg: 'RS384',
      use: 'sig',
      e: 'AQAB',
      n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
    },
  ],
});

test('an admin registers a pharmacy system, reads its client id and disables it', async ({ page }) => {
  await signInAs(page, 'admin@demo.hcp');
  await page.goto('/patient-search');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Pharmacy Systems' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pharmacy Systems' })).toBeVisible();
  await expectAccessible(page);

  const name = `E2E Pharmacy ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Public key set (JWKS JSON)').fill('{not json');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('The key set is not valid JSON.')).toBeVisible();
  await expect(page.getByLabel('Public key set (JWKS JSON)')).toBeFocused();

  await page.getByLabel('Public key set (JWKS JSON)').fill(JWKS);
  await page.getByRole('button', { name: 'Register' }).click();
  const created = page.getByRole('status').filter({ hasText: `${name} is registered` });
  await expect(created).toContainText(/hcp-[A-Za-z0-9_-]{20,}/);
  const clientId = /hcp-[A-Za-z0-9_-]{20,}/.exec(await created.innerText())?.[0] as string;
  const row = page.getByRole('table', { name: 'Pharmacy systems' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(clientId);
  await expect(row).toContainText('Enabled');
  await expectAccessible(page);

  await row.getByRole('button', { name: `Disable ${name}` }).click();
  await expect(row).toContainText('Disabled');
});

test('others are told the screen is for administrators', async ({ page }) => {
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/manage-integrations');
  await expect(page.getByRole('alert')).toHaveText('Only administrators can register pharmacy systems.');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Pharmacy Systems' })).toHaveCount(0);
});
