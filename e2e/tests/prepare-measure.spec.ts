/**
 * Issue 23's measure: the prescriber's own interactions for 20 refill requests decided alone (open each, authorize
 * by fax, confirm) against 20 more that office staff prepared (the prescriber signs them all as prepared after one
 * confirmation). Every click and key press is counted, the time taken; the staff's own work is counted apart. On a
 * server of its own, so no other journey's items move under it.
 */
import { rmSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { expect as baseExpect, simulatePharmacy, test } from './fixtures.ts';
import { Counter, signInOn, startMeasuringServer, stopServer } from './support/measuring-server.ts';

// Signing 20 items, each in its own transaction, can take longer than the default 5 s on a loaded host.
const expect = baseExpect.configure({ timeout: 20_000 });
const ITEMS = 20;

async function pageOn(browser: Browser, base: string, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const tokens = await signInOn(page, base, email);
  return { context, page, tokens };
}

test('20 refill requests: the prescriber alone against signing what staff prepared (issue 23 measure)', async ({ browser }) => {
  test.setTimeout(300_000);
  const { base, dataDir, npi, server } = await startMeasuringServer();
  try {
    simulatePharmacy(base, 'refill-request', ITEMS * 2, { dataDir, npi });
    const doctor = await pageOn(browser, base, 'dr.morgan@demo.hcp');
    const headers = { authorization: `Bearer ${doctor.tokens.accessToken}`, 'x-user-id': doctor.tokens.userID };
    const refillIds = async () => {
      const res = await doctor.page.request.get(
        `${base}/api/mdo/v2/users/${doctor.tokens.userID}/action-needed?actionType=ACTION_NEEDED_REFILL_AUTH`,
        { headers },
      );
      type Rx = { id: string };
      return ((await res.json()).doctors as { patients: { prescriptions: Rx[] }[] }[]).flatMap((d) =>
        d.patients.flatMap((p) => p.prescriptions.map((r) => r.id)),
      );
    };
    const all = await refillIds();
    expect(all).toHaveLength(ITEMS * 2);

    // Alone: from the refill list, open the first request, authorize by fax, confirm; back on the list.
    const alone = new Counter(doctor.page);
    let started = Date.now();
    await doctor.page.goto(`${base}/action-needed?category=refillAuth`);
    const list = doctor.page.getByRole('list', { name: 'Refill authorizations' });
    for (let done = 0; done < ITEMS; done += 1) {
      await expect(list).toBeVisible();
      await alone.click(list.getByRole('link').first());
      await alone.click(doctor.page.getByRole('button', { name: 'Authorize by fax' }));
      await alone.click(
        doctor.page
          .getByRole('dialog', { name: 'Send this refill authorization by fax?' })
          .getByRole('button', { name: 'Send by fax' }),
      );
      await doctor.page.waitForURL(/\/action-needed(\?.*)?$/);
    }
    const aloneMs = Date.now() - started;
    const left = await refillIds();
    expect(left).toHaveLength(ITEMS);

    // Prepared: office staff prepare each of the other 20 from its page (their work, counted apart).
    const staff = await pageOn(browser, base, 'staff.lee@demo.hcp');
    const preparing = new Counter(staff.page);
    started = Date.now();
    for (const id of left) {
      await staff.page.goto(`${base}/action-needed/${id}/refillAuth`);
      preparing.clicks += 1; // opening the item, as a click on its card would
      const form = staff.page.getByRole('form', { name: 'Prepare for the prescriber’s signature' });
      await preparing.click(form.getByRole('radio', { name: 'Authorize by fax' }));
      await preparing.click(form.getByRole('button', { name: 'Mark ready to sign' }));
      await staff.page.waitForURL(/\/action-needed(\?.*)?$/);
    }
    const preparingMs = Date.now() - started;

    // The prescriber signs them all as prepared: one button, one confirmation.
    const signing = new Counter(doctor.page);
    started = Date.now();
    await doctor.page.goto(`${base}/action-needed`);
    const section = doctor.page.getByRole('region', { name: `Ready to sign (${ITEMS})` });
    await signing.click(section.getByRole('button', { name: `Sign all ${ITEMS} as prepared` }));
    await signing.click(
      doctor.page
        .getByRole('dialog', { name: `Sign ${ITEMS} as prepared?` })
        .getByRole('button', { name: `Sign and send ${ITEMS}` }),
    );
    await expect(doctor.page.getByText(`Signed ${ITEMS} as prepared.`)).toBeVisible();
    const signingMs = Date.now() - started;
    expect(await refillIds()).toEqual([]);

    const ratio = signing.total / alone.total;
    console.log(
      `prepare-then-sign: the prescriber's interactions for ${ITEMS} refill requests: alone ${alone.total} ` +
        `(${(aloneMs / 1000).toFixed(1)} s), prepared by staff ${signing.total} (${(signingMs / 1000).toFixed(1)} s): ` +
        `${ratio.toFixed(2)} of the interactions, ${(signingMs / aloneMs).toFixed(2)} of the time; ` +
        `the staff's preparation ${preparing.total} interactions (${(preparingMs / 1000).toFixed(1)} s)`,
    );
    // What the prescriber does no longer grows with the number of items.
    expect(signing.total).toBe(2);
    expect(ratio).toBeLessThanOrEqual(0.2);
    await doctor.context.close();
    await staff.context.close();
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
