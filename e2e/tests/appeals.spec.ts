import type { Page } from '@playwright/test';
import { demoAppeal, expect, expectAccessible, signInAs, test } from './fixtures.ts';

/**
 * Appeals (issue 10): an external provider opens the pharmacy's link, attaches documents, saves, reloads,
 * submits and gets a receipt — and the appeal leaves the prescriber's Action Needed; a signed-in prescriber
 * opens their own appeal from Action Needed without the key.
 */
test.describe.configure({ mode: 'serial' });

const pdf = (name: string, size = 4096) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size - 9, 0x20)]),
});
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function appealLinks(page: Page, patientName: string) {
  await page.goto('/action-needed');
  await expect(page.getByRole('heading', { level: 1, name: 'Action Needed' })).toBeVisible();
  await page.getByRole('link', { name: /^Appeals \(/ }).click();
  return page.getByRole('link', { name: new RegExp(`^Appeal: .* for ${escapeRegExp(patientName)}$`, 'i') });
}

test('an external provider opens the Get Covered link, attaches, saves, reloads, submits and gets a receipt', async ({
  page,
}) => {
  const link = demoAppeal({ prescriberEmail: 'dr.morgan@demo.hcp', variant: 'getCovered' });
  await page.goto(link.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Get Covered' })).toBeVisible();
  await expect(page.getByLabel('Prescriber NPI')).toHaveValue(link.npi);
  await expect(page.getByLabel('Access key')).toHaveValue(link.key);
  await expectAccessible(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/getcovered-form\?/);
  await expect(page.getByRole('heading', { name: 'Denied prescription' })).toBeVisible();
  await expect(page.getByText(new RegExp(escapeRegExp(link.patientName), 'i')).first()).toBeVisible();

  // The clinical notes are pre-checked and required in this variant.
  const notes = page.getByRole('checkbox', { name: 'Clinical Notes/Medical Records (required)' });
  await expect(notes).toBeChecked();
  await expect(notes).toBeDisabled();
  await expectAccessible(page);

  // A ".pdf" that is really a program is refused before anything is sent.
  await page.getByRole('checkbox', { name: 'Denial Letter' }).check();
  await page.getByLabel('File for Denial Letter').setInputFiles({
    name: 'denial.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(256)]),
  });
  await expect(page.getByText('Only PDF, PNG, JPEG, TIFF or Word (.docx) files can be attached.')).toBeVisible();
  await page.getByLabel('File for Denial Letter').setInputFiles(pdf('denial.pdf'));
  await expect(page.getByText('Attached: denial.pdf')).toBeVisible();
  // Replace it, then put the notes in their slot.
  await page.getByLabel('Replace the Denial Letter file').setInputFiles(pdf('denial-letter-v2.pdf', 8192));
  await expect(page.getByText('Attached: denial-letter-v2.pdf')).toBeVisible();
  await expect(page.getByText('Attached: denial.pdf')).toHaveCount(0);
  await page.getByLabel('File for Clinical Notes/Medical Records').setInputFiles(pdf('chart-notes.pdf', 600_000));
  await expect(page.getByText('Attached: chart-notes.pdf')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Additional Attachment' }).check();
  await page.getByLabel('File for Additional Attachment').setInputFiles(pdf('extra.pdf'));
  await page.getByRole('button', { name: 'Remove extra.pdf' }).click();
  await expect(page.getByText('Attached: extra.pdf')).toHaveCount(0);

  // What the server keeps comes back as the same file.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'View denial-letter-v2.pdf' }).click();
  expect((await download).suggestedFilename()).toBe('denial-letter-v2.pdf');

  await page.getByLabel('Clinical justification (required)').fill('Metformin and sitagliptin both failed over 6 months.');
  await page.getByLabel('Diagnosis codes (ICD-10)').fill('E11.65');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Draft saved / })).toBeVisible();

  // A reload loses nothing: same appeal, no second sign-in, text and attachments still there.
  await page.reload();
  await expect(page.getByLabel('Clinical justification (required)')).toHaveValue(
    'Metformin and sitagliptin both failed over 6 months.',
  );
  await expect(page.getByLabel('Diagnosis codes (ICD-10)')).toHaveValue('E11.65');
  await expect(page.getByText('Attached: denial-letter-v2.pdf')).toBeVisible();
  await expect(page.getByText('Attached: chart-notes.pdf')).toBeVisible();

  // Submit says what is missing first, then asks for confirmation.
  await page.getByRole('button', { name: 'Submit appeal' }).click();
  await expect(page.getByText('Confirm the attestation to submit.')).toBeVisible();
  await page.getByRole('checkbox', { name: /^I am the prescriber/ }).check();
  await page.getByRole('button', { name: 'Submit appeal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit this appeal?' });
  await expect(dialog).toContainText('with 2 attachments');
  await dialog.getByRole('button', { name: 'Submit appeal' }).click();
  await expect(page.getByRole('heading', { name: 'Appeal submitted' })).toBeFocused();
  await expect(page.getByText('Clinical Notes/Medical Records: chart-notes.pdf')).toBeVisible();
  await expectAccessible(page);
  // The receipt stays after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Appeal submitted' })).toBeVisible();

  // The prescriber's Action Needed no longer lists it.
  const portal = await page.context().newPage();
  await signInAs(portal, 'dr.morgan@demo.hcp');
  const remaining = await appealLinks(portal, link.patientName);
  await expect(portal.getByRole('link', { name: /^Appeal: / }).first()).toBeVisible();
  await expect(remaining).toHaveCount(0);
});

test('a signed-in prescriber opens their own appeal from Action Needed without the key', async ({ page }) => {
  const link = demoAppeal({ prescriberEmail: 'dr.morgan@demo.hcp', variant: 'appeal' });
  await signInAs(page, 'dr.morgan@demo.hcp');
  const item = await appealLinks(page, link.patientName);
  await item.first().click();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Open the appeal form' }).click();
  await expect(page).toHaveURL(/\/appeals-form\?prescription=/);
  await expect(page.getByRole('heading', { level: 1, name: 'HCP Appeal' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Denied prescription' })).toBeVisible();
  await expect(page.getByLabel('Prescriber NPI')).toHaveCount(0);
  // This variant does not require the clinical notes.
  await expect(page.getByRole('checkbox', { name: 'Clinical Notes/Medical Records' })).not.toBeChecked();
  await page.getByLabel('Clinical justification (required)').fill('Formulary alternative caused a rash.');
  await expect(page.getByRole('status').filter({ hasText: /^Draft saved / })).toBeVisible();
  await expectAccessible(page);
});
