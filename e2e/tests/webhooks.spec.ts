import { startReceiver } from '../../apps/server/test/support/webhook-receiver.ts';
import { authorizeRefillByFax, expect, expectAccessible, signInAs, simulatePharmacy, test } from './fixtures.ts';

/**
 * Decisions heard by the pharmacy (issue 20): an admin adds a webhook endpoint (a receiver this test runs) and copies
 * the secret shown once; the prescriber authorizes a refill the pharmacy simulator asked for; the receiver gets it
 * signed (verified with the Standard Webhooks library) as a FHIR message, the timeline says it was delivered, and the
 * admin sees the delivery and turns the endpoint off.
 */
test('a decision reaches the pharmacy’s webhook, signed, and the timeline says it was delivered', async ({
  page,
  browser,
  baseURL,
}) => {
  // The pharmacy's receiver: each delivery verified with the Standard Webhooks library against the secret shown.
  const receiver = await startReceiver();
  const url = receiver.url;
  try {
    await signInAs(page, 'admin@demo.hcp');
    await page.goto('/manage-integrations');
    await page.getByLabel('Address (https)').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'Copy it now' });
    await expect(shown).toContainText(/whsec_[A-Za-z0-9+/=]{40,}/);
    receiver.secrets = [/whsec_[A-Za-z0-9+/=]{40,}/.exec(await shown.innerText())?.[0] as string];
    // Focus where the user goes on (issue 47): on Copy secret, then, after Done, on the new endpoint's row.
    await expect(shown.getByRole('button', { name: 'Copy secret' })).toBeFocused();
    await expectAccessible(page, { bothWidths: true });
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('button', { name: `Deliveries to ${url}` })).toBeFocused();

    // The pharmacy asks for a refill through the FHIR API; the prescriber answers it in the browser.
    const prescription = simulatePharmacy(baseURL as string, 'refill-request')[0] as string;
    const doctor = await browser.newPage();
    await signInAs(doctor, 'dr.morgan@demo.hcp');
    await doctor.goto(`/action-needed/${prescription}/refillAuth`);
    await authorizeRefillByFax(doctor);

    // The decision is held for its undo window (10 s, issue 22) before it goes: the test waits for its delivery.
    const got = await receiver.when((r) => r.body.includes(prescription));
    expect(got.verified).toBe(true);
    expect(receiver.received.filter((r) => r.body.includes(prescription))).toHaveLength(1);
    expect(JSON.parse(got.body)).toMatchObject({ resourceType: 'Bundle', type: 'message' });

    await doctor.goto(`/action-needed/${prescription}/refillAuth`);
    await expect(doctor.getByText(/Sent to the pharmacy .* · delivered /)).toBeVisible();
    await doctor.close();

    const row = page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row', { name: new RegExp(url) });
    await page.reload();
    // Other journeys running beside this one make decisions too: at least this one was delivered.
    await expect(row).toContainText(/[1-9]\d* delivered today/);
    await row.getByRole('button', { name: `Deliveries to ${url}` }).click();
    await expect(page.getByRole('heading', { name: `Deliveries to ${url}` })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Refill authorized', exact: true }).first()).toBeVisible();
    await expectAccessible(page, { bothWidths: true });
    await row.getByRole('button', { name: `Turn off ${url}` }).click();
    await expect(row).toContainText('Off');
    // The button was busy while it worked; focus is back on it, now the other way round.
    await expect(row.getByRole('button', { name: `Turn on ${url}` })).toBeFocused();
  } finally {
    await receiver.close();
  }
});
