import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

/** A patient of Dr Morgan's practice, read from the API the page itself uses. */
async function aPatient(page: import('@playwright/test').Page) {
  const tokens = await signInAs(page, 'dr.morgan@demo.hcp');
  const headers = { authorization: `Bearer ${tokens.accessToken}`, 'x-user-id': tokens.userID };
  const res = await page.request.get(`/api/mdo/v1/users/${tokens.userID}/patients-search?searchText=a&limit=1`, { headers });
  // One letter is too short on purpose: take any name from the action list instead.
  expect(res.status()).toBe(400);
  const list = await page.request.get(`/api/mdo/v2/users/${tokens.userID}/action-needed?actionType=ACTION_NEEDED_ALL`, {
    headers,
  });
  const patient = (await list.json()).doctors[0].patients[0] as { id: string; firstName: string; lastName: string; dob: string };
  return patient;
}

test('search a patient by name and by date of birth typed as MMDDYY, then open the detail', async ({ page }) => {
  const patient = await aPatient(page);
  await page.goto('/patient-search');
  await expect(page.getByRole('heading', { level: 1, name: 'All Patients' })).toBeVisible();
  await expectAccessible(page);

  const box = page.getByLabel('Search patients');
  await box.fill(`${patient.lastName} ${patient.firstName}`);
  await box.press('Enter');
  const results = page.getByRole('table', { name: /^Patients matching/ });
  await expect(results.getByRole('link').first()).toBeVisible();
  await expectAccessible(page);

  const [y, m, d] = patient.dob.split('-');
  await box.fill(`${m}${d}${y?.slice(2)}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const link = results.getByRole('link', { name: new RegExp(`${patient.lastName}, ${patient.firstName}`, 'i') });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/patients/${patient.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(new RegExp(patient.lastName, 'i'));
  await expect(page.getByRole('table', { name: 'Prescriptions' })).toBeVisible();
  await expectAccessible(page);

  // Back keeps the search.
  await page.goBack();
  await expect(page.getByLabel('Search patients')).toHaveValue(`${m}${d}${y?.slice(2)}`);
});

test('nothing found says so, and × clears the search', async ({ page }) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/patient-search');
  await page.getByLabel('Search patients').fill('zzzzqqq');
  await page.getByLabel('Search patients').press('Enter');
  await expect(page.getByText('No patients match your search.')).toBeVisible();
  // What was searched never reaches the address bar (nor the browser's history).
  expect(new URL(page.url()).search).toBe('');
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page).toHaveURL(/\/patient-search$/);
  await expect(page.getByLabel('Search patients')).toBeFocused();
});
