/**
 * Prepare-then-sign (issue 23): office staff prepare a refill denial on its page with a note and mark it ready; the
 * prescriber finds it under "Ready to sign", reads what was prepared and by whom, and signs all as prepared with one
 * confirmation; the timeline names who prepared it.
 */
import { apiSession, expect, expectAccessible, signInAs, test } from './fixtures.ts';

test('staff prepare, the prescriber signs as prepared', async ({ page, browser }) => {
  // Two sign-ins and eight full axe scans (four states, each at two widths): 26–33 s alone, and past the default
  // minute once in a fresh-clone CI run with the machine loaded (2026-12-04). The time is the scans', not a wait.
  test.setTimeout(120_000);
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/action-needed?category=refillAuth');
  const link = page.locator('main a[href^="/action-needed/"][href$="/refillAuth"]').first();
  await expect(link).toBeVisible();
  const href = (await link.getAttribute('href')) as string;
  await link.click();
  const form = page.getByRole('form', { name: 'Prepare for the prescriber’s signature' });
  await expect(form).toBeVisible();
  await form.getByRole('radio', { name: 'Deny: the patient needs an office visit' }).check();
  await form.getByLabel('Note for the prescriber (optional)').fill('No visit in 14 months.');
  await expectAccessible(page, { bothWidths: true });
  await form.getByRole('button', { name: 'Mark ready to sign' }).click();
  await expect(page.getByText('Ready to sign: Deny: the patient needs an office visit.')).toBeVisible();

  const context = await browser.newContext();
  const doctor = await context.newPage();
  await signInAs(doctor, 'dr.morgan@demo.hcp');
  await doctor.goto('/action-needed');
  const section = doctor.getByRole('region', { name: /Ready to sign \(\d+\)/ });
  await expect(section).toBeVisible();
  await section.getByRole('button', { name: 'Show what was prepared' }).click();
  const item = section.getByRole('listitem').filter({ has: doctor.locator(`a[href="${href}"]`) });
  await expect(item).toContainText('Deny: the patient needs an office visit — prepared by');
  await expect(item).toContainText('Note: No visit in 14 months.');
  await expectAccessible(doctor, { bothWidths: true });
  await section.getByRole('button', { name: /Sign all \d+ as prepared/ }).click();
  const dialog = doctor.getByRole('dialog', { name: /Sign \d+ as prepared\?/ });
  await expectAccessible(doctor, { bothWidths: true });
  await dialog.getByRole('button', { name: /Sign and send \d+/ }).click();
  await expect(doctor.getByText(/Signed \d+ as prepared\./)).toBeVisible();
  await expect(section).toHaveCount(0);
  await expectAccessible(doctor, { bothWidths: true });

  // The timeline names who prepared it (the item itself has left the list).
  const id = href.split('/')[2] as string;
  const { headers } = await apiSession(doctor, 'dr.morgan@demo.hcp');
  const events = await doctor.request.get(`/api/mdo/v1/prescriptions/${id}/events`, { headers });
  expect(JSON.stringify(await events.json())).toMatch(/Refill denied: office visit needed — prepared by/);
  await context.close();
});
