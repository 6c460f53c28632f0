import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

// One prescriber has one draft: these journeys take turns.
test.describe.configure({ mode: 'serial' });

test('a prescriber writes and sends a prescription for a new patient by keyboard, then finds it in the Rx list', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/patient-search');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Prescribe Rx/ })
    .press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Prescribe Rx' })).toBeVisible();
  await expectAccessible(page);
  const type = async (label: string | RegExp, text: string) => {
    await page.getByLabel(label).focus();
    await page.keyboard.type(text);
  };

  await page.getByRole('radio', { name: 'A new patient' }).focus();
  await page.keyboard.press('Space');
  const patientName = `Kay Board${String(Date.now())
    .slice(-4)
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)] ?? '')}`;
  await type('Full name', patientName);
  await type('Date of birth', '03091984');
  await type('Phone', '(614) 555-0199');
  await type('Street address', '12 Lake St');
  await type('ZIP code', '43215');
  await page.getByRole('button', { name: 'Look up ZIP' }).press('Enter');
  await expect(page.getByLabel('City')).toHaveValue('Columbus');

  await type('Find a product (name or NDC)', 'xifaxan');
  await page.keyboard.press('Enter');
  const product = page.getByRole('radio', { name: /Xifaxan 550 mg/ });
  await product.focus();
  await page.keyboard.press('Space');
  await expect(product).toBeChecked();
  await type('Quantity', '42');
  await type('Days supply', '14');
  await page.getByLabel(/^Refills/).focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await type('Directions (sig)', 'Take 1 tablet by mouth three times daily');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Review' }).press('Enter');

  const review = page.getByRole('heading', { level: 2, name: 'Review and send' });
  await expect(review).toBeFocused();
  await expect(page.getByText(`${patientName} (new), born 03/09/1984`)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Send by eRx' }).press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Prescription sent' })).toBeVisible();
  await expect(page.getByText(/Xifaxan was sent by eRx to the pharmacy\. Order P\d{8}\./)).toBeVisible();

  await page.getByRole('link', { name: 'New Prescriptions list' }).press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /New Prescriptions List/ })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(patientName, 'i') })).toContainText('Xifaxan');
});

test('an unsent prescription survives a reload, and can be discarded', async ({ page }) => {
  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto('/prescribe');
  await page.getByLabel('Directions (sig)').fill('Apply twice daily to the affected area');
  await expect(page.getByText('Draft saved')).toBeVisible();
  // The page after a reload waits for its draft: the test waits for that answer, not a fixed time (issue 44: on a
  // loaded machine the reload's code, user and draft took longer than the default 5 s wait).
  const draftRead = () => page.waitForResponse((r) => r.url().includes('/prescription-draft') && r.request().method() === 'GET');
  let read = draftRead();
  await page.reload();
  await read;
  await expect(page.getByText('Your unsent prescription was restored.')).toBeVisible();
  await expect(page.getByLabel('Directions (sig)')).toHaveValue('Apply twice daily to the affected area');
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await expect(page.getByLabel('Directions (sig)')).toHaveValue('');
  read = draftRead();
  await page.reload();
  await read;
  await expect(page.getByLabel('Directions (sig)')).toHaveValue('');
  await expect(page.getByText('Your unsent prescription was restored.')).toHaveCount(0);
});

test('office staff cannot reach Prescribe Rx', async ({ page }) => {
  await signInAs(page, 'staff.lee@demo.hcp');
  await page.goto('/patient-search');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Prescribe Rx/ })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Prescribe Rx' })).toHaveCount(0);
  await page.goto('/prescribe');
  await expect(
    page.getByText('Prescribe Rx is available to prescribers whose practice has prescribing turned on.'),
  ).toBeVisible();
});
