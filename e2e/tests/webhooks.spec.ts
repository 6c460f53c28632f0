import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
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
  const received: { body: string; verified: boolean }[] = [];
  let secret = '';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Webhook(secret).verify(body, request.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      received.push({ body, verified });
      response.writeHead(verified ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  try {
    await signInAs(page, 'admin@demo.hcp');
    await page.goto('/manage-integrations');
    await page.getByLabel('Address (https)').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'Copy it now' });
    await expect(shown).toContainText(/whsec_[A-Za-z0-9+/=]{40,}/);
    secret = /whsec_[A-Za-z0-9+/=]{40,}/.exec(await shown.innerText())?.[0] as string;
    await expectAccessible(page);

    // The pharmacy asks for a refill through the FHIR API; the prescriber answers it in the browser.
    const prescription = simulatePharmacy(baseURL as string, 'refill-request')[0] as string;
    const doctor = await browser.newPage();
    await signInAs(doctor, 'dr.morgan@demo.hcp');
    await doctor.goto(`/action-needed/${prescription}/refillAuth`);
    await authorizeRefillByFax(doctor);

    // The decision is held for its undo window (10 s, issue 22) before it goes.
    await expect.poll(() => received.filter((r) => r.body.includes(prescription)).length, { timeout: 30_000 }).toBe(1);
    const got = received.find((r) => r.body.includes(prescription));
    expect(got?.verified).toBe(true);
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({ resourceType: 'Bundle', type: 'message' });

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
    await expectAccessible(page);
    await row.getByRole('button', { name: `Turn off ${url}` }).click();
    await expect(row).toContainText('Off');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
