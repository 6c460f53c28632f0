/**
 * The privacy officer's audit trail in the browser (issue 49): a staff member reads a patient with no open request;
 * the officer finds who saw that patient and exports the report (CSV and FHIR), reads what the staff member did,
 * reviews a sales user's support window, clears the unusual access with a note, and checks the seals. Every report
 * is axe-clean at 390 and 1280 px and fits a phone's width.
 */
import { readFile } from 'node:fs/promises';
import { PRIOR_AUTH_ACTION_STATUSES, SUBSTITUTION_PENDING_STATUSES } from '@hcp/contract';
import type { Page } from '@playwright/test';
import { apiSession, expect, expectAccessible, PHONE_VIEWPORT, signInAs, test } from './fixtures.ts';

type Prescription = {
  needsRefillAuth: boolean;
  phoneException: boolean;
  hcpActionRequired: boolean;
  priorAuthStatus: string | null;
  substitutionStatus: string | null;
};
/** Open work as the unusual-access rule reads it (the contract's needs-action rules; the detail's refills are those due). */
const open = (rx: Prescription) =>
  rx.needsRefillAuth ||
  rx.phoneException ||
  rx.hcpActionRequired ||
  (PRIOR_AUTH_ACTION_STATUSES as readonly string[]).includes(rx.priorAuthStatus ?? '') ||
  (SUBSTITUTION_PENDING_STATUSES as readonly string[]).includes(rx.substitutionStatus ?? '');

/** The page is no wider than a phone's window once it holds still. */
async function fitsPhone(page: Page) {
  const size = page.viewportSize();
  await page.setViewportSize(PHONE_VIEWPORT);
  const overflow = await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    for (let i = 0; i < 3; i += 1) await frame();
    return document.documentElement.scrollWidth - window.innerWidth;
  });
  if (size) await page.setViewportSize(size);
  expect(overflow, 'sideways scrolling at 390 px').toBeLessThanOrEqual(0);
}

test('the privacy officer: who saw a patient, what a person did, support windows, unusual access and the seals', async ({
  page,
}) => {
  // Jamie Lee (staff) opens the record of a patient of the practice who has no open request.
  const lee = await apiSession(page, 'staff.lee@demo.hcp');
  let patient: { id: string; firstName: string; lastName: string } | null = null;
  for (const prefix of ['ma', 'jo', 'an', 'da', 'sa', 'ch', 'el', 'ro']) {
    const found = await page.request.get(`/api/mdo/v1/users/${lee.userID}/patients-search?searchText=${prefix}&limit=25`, {
      headers: lee.headers,
    });
    expect(found.status()).toBe(200);
    const candidates = ((await found.json()).records as { id: string; actionNeededCount: number }[]).filter(
      (p) => p.actionNeededCount === 0,
    );
    for (const candidate of candidates) {
      const detail = await (
        await page.request.get(`/api/mdo/v1/users/${lee.userID}/patients/${candidate.id}`, { headers: lee.headers })
      ).json();
      if (!(detail.prescriptions as Prescription[]).some(open)) {
        patient = detail.patient;
        break;
      }
    }
    if (patient) break;
  }
  if (!patient) throw new Error('no patient without open work found');
  const name = `${patient.firstName} ${patient.lastName}`;

  // A sales user opens a support window on Lee's practice (to review below).
  const details = await (
    await page.request.get(`/api/mdo/v1/users/${lee.userID}/mdo-user-details`, { headers: lee.headers })
  ).json();
  const sales = await apiSession(page, 'sales@demo.hcp');
  const reason = `Audit journey ${Date.now()}: the office asked about a lost refill.`;
  const opened = await page.request.post(`/api/mdo/v1/users/${sales.userID}/support-access`, {
    headers: sales.headers,
    data: { mdOfficeId: details.details.mdOfficeId, reason, minutes: 15 },
  });
  expect(opened.status()).toBe(201);

  // The officer reaches the trail from the footer.
  await signInAs(page, 'admin@demo.hcp');
  await page.goto('/preferences');
  await page.getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit Trail' })).toBeVisible();

  // Who saw this patient.
  await page.getByLabel('Find a patient').fill(patient.lastName);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page
    .getByRole('button', { name: new RegExp(`^${name}, born `) })
    .first()
    .click();
  const report = page.getByRole('table', { name: `Access to ${name}'s records` });
  const leeRow = report.getByRole('row', { name: /Jamie Lee/ }).first();
  await expect(leeRow).toContainText("Opened the patient's record");
  await expect(leeRow).toContainText('Portal');
  await expectAccessible(page, { bothWidths: true });
  await fitsPhone(page);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await csvDownload).path()) as string, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('When (UTC),Who,Role,Practice,What,Outcome,Path,IP address,Request id');
  expect(csv).toContain("Opened the patient's record");
  expect(csv).not.toContain(patient.lastName);
  const fhirDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export FHIR AuditEvents' }).click();
  const bundle = JSON.parse(await readFile((await (await fhirDownload).path()) as string, 'utf8'));
  expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
  expect(bundle.entry[0].resource.resourceType).toBe('AuditEvent');

  // What Jamie Lee did, with the patient named.
  await page.getByRole('link', { name: 'User activity' }).click();
  await page.getByLabel('Find a person').fill('Jamie');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('button', { name: /^Jamie Lee \(staff\.lee@demo\.hcp\)/ }).click();
  const activity = page.getByRole('table', { name: 'Activity of Jamie Lee' });
  await expect(activity.getByRole('row', { name: new RegExp(name) }).first()).toContainText("Opened the patient's record");
  await expectAccessible(page, { bothWidths: true });
  await fitsPhone(page);

  // The sales user's support window, reviewed with a note.
  await page.getByRole('link', { name: 'Support windows' }).click();
  const windows = page.getByRole('table', { name: 'Support windows' });
  const window = windows.getByRole('row', { name: new RegExp(reason.slice(0, 30)) });
  await expect(window).toBeVisible();
  await expectAccessible(page, { bothWidths: true });
  await window.getByRole('button', { name: 'Mark reviewed' }).click();
  await window.getByLabel('Note').fill('Confirmed with the office manager.');
  await window.getByRole('button', { name: 'Save review' }).click();
  // Reviewed: no longer among those waiting.
  await expect(windows.getByRole('row', { name: new RegExp(reason.slice(0, 30)) })).toHaveCount(0);
  await fitsPhone(page);

  // Unusual access: the rules explained; Lee's read without open work cleared with a note.
  await page.getByRole('link', { name: 'Unusual access' }).click();
  await expect(page.getByText('Record read without open work', { exact: true }).first()).toBeVisible();
  const findings = page.getByRole('table', { name: 'Findings' });
  const finding = findings.getByRole('row', { name: new RegExp(`Record read without open work.*Jamie Lee.*${name}`) });
  await expect(finding).toBeVisible();
  await expectAccessible(page, { bothWidths: true });
  await finding.getByRole('button', { name: 'Clear' }).click();
  await finding.getByLabel('Note').fill('Scheduling a visit the patient asked for.');
  await finding.getByRole('button', { name: 'Save review' }).click();
  await expect(findings.getByRole('row', { name: new RegExp(`Record read without open work.*Jamie Lee.*${name}`) })).toHaveCount(
    0,
  );
  await fitsPhone(page);

  // Proof nothing was changed.
  await page.getByRole('link', { name: 'Integrity' }).click();
  await page.getByRole('button', { name: 'Check the trail' }).click();
  await expect(page.getByText(/^The trail verifies: /)).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Avery Admin' })).toContainText('privacy officer');
  await expectAccessible(page, { bothWidths: true });
  await fitsPhone(page);
});
