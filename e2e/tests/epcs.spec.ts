/**
 * Issue 48, EPCS in the browser (decision 0059), on a server of its own (a second prescriber account and controlled
 * refill requests are written into its embedded database between two starts, so no other journey meets them):
 *
 * Dr. Morgan adds a passkey (Chromium's virtual authenticator, not mocked) and his DEA registration (a wrong check
 * digit refused first), and enters his own permission with his password and the passkey; a colleague — a registrant
 * with an authenticator app, its codes computed here — approves it, ticking that the registration was checked, and
 * cannot sign a controlled substance herself (no permission of her own). Dr. Morgan then signs a C-IV refill: the
 * screen shows what is signed with the rule's legal text; a wrong password is refused with nothing signed; password
 * and passkey sign it. A Schedule II refill is refused. The practice's daily report lists the signature and the
 * incidents. He also writes a new C-IV prescription in Prescribe Rx and signs it the same way. axe at 390 and 1280 px
 * on the page and the signing dialog.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Secret, TOTP } from 'otpauth';
import { DEMO_PASSWORD, expect, expectAccessible, test } from './fixtures.ts';
import { freePort, putSession, type SessionTokens, startServer, stopServer } from './support/measuring-server.ts';
import { addPlatformAuthenticator } from './support/webauthn.ts';

const SECOND_EMAIL = 'dr.epcs.colleague@demo.hcp';

// The browser lives far from the reports' zone (AUDIT_TIME_ZONE, New York by default): the daily report's "today" is
// New York's, told by the server, not the browser's. Asked for the browser's day, the report was empty whenever the two
// calendars differed (this journey failed in CI between 00:00 and 05:00 UTC); from UTC+14 they differ 19 hours a day.
test.use({ timezoneId: 'Pacific/Kiritimati' });

test('a prescriber is granted EPCS by two people and signs a controlled refill and a new controlled prescription with a passkey', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hcp-epcs-'));
  const port = await freePort();
  // A host name, not an address: WebAuthn takes no IP address as its relying party.
  const base = `http://localhost:${port}`;
  let server = await startServer(dataDir, port);
  await stopServer(server);
  const db = new PGlite(path.join(dataDir, 'pglite'));
  const morgan = (
    await db.query<{ officeId: string; staffId: string; name: string; state: string }>(`
      select u.md_office_id as "officeId", u.md_staff_id as "staffId", s.first_name || ' ' || s.last_name as name, o.state
      from users u join md_staff s on s.id = u.md_staff_id join md_offices o on o.id = u.md_office_id
      where u.email = 'dr.morgan@demo.hcp'`)
  ).rows[0] as { officeId: string; staffId: string; name: string; state: string };
  const colleague = (
    await db.query<{ id: string; name: string }>(
      `select d.id, d.first_name || ' ' || d.last_name as name from md_staff d join office_members m on m.md_staff_id = d.id
       where m.md_office_id = $1 and d.role in ('MD', 'DO', 'PA', 'NP', 'ARNP') and d.id <> $2 order by d.id limit 1`,
      [morgan.officeId, morgan.staffId],
    )
  ).rows[0] as { id: string; name: string };
  await db.query(
    `insert into users (tenant_id, email, role, user_type, display_name, password_hash, md_office_id, md_staff_id)
     select tenant_id, $1, role, user_type, $2, password_hash, md_office_id, $3 from users where email = 'dr.morgan@demo.hcp'`,
    [SECOND_EMAIL, colleague.name, colleague.id],
  );
  const requests = (
    await db.query<{ id: string }>(
      `select id from prescriptions where md_office_id = $1 and needs_refill_auth and refill_postponed_until is null
       order by id limit 4`,
      [morgan.officeId],
    )
  ).rows.map((r) => r.id);
  const [scheduleFour, scheduleTwo, changedMeanwhile, inBulk] = requests as [string, string, string, string];
  for (const id of [scheduleFour, changedMeanwhile, inBulk]) {
    await db.query(
      `update prescriptions set dispensed_ndc = '00009-0029-01', drug_name = 'Alprazolam', strength = '0.5 mg',
         prescriber_id = $2, prescribed_at = now() - interval '20 days', sig = 'Take 1 tablet by mouth at bedtime as needed'
       where id = $1`,
      [id, morgan.staffId],
    );
  }
  // A registration of his that lapsed a month ago: it signs nothing and grants nothing.
  await db.query(
    `insert into dea_registrations (md_staff_id, number, schedules, state, expires_on)
     values ($1, 'BM1111119', '{II,III,IV,V}', $2, current_date - 30)`,
    [morgan.staffId, morgan.state],
  );
  await db.query(
    `update prescriptions set dispensed_ndc = '00406-0123-01', drug_name = 'Hydrocodone/APAP', strength = '5/325 mg',
       prescriber_id = $2 where id = $1`,
    [scheduleTwo, morgan.staffId],
  );
  await db.close();
  server = await startServer(dataDir, port);
  try {
    // The colleague: signed in once through the API, then an authenticator app and a DEA registration of her own.
    const login = await page.request.post(`${base}/auth-service/login`, {
      data: { email: SECOND_EMAIL, username: SECOND_EMAIL, password: DEMO_PASSWORD, dashboard: 'MD Dashboard' },
    });
    const second = (await login.json()).jwtToken as SessionTokens;
    const as = (t: SessionTokens) => ({ authorization: `Bearer ${t.accessToken}`, 'x-user-id': t.userID });
    const factors = `${base}/api/mdo/v1/users/${second.userID}/sign-in-factors`;
    const setup = await (await page.request.post(`${factors}/authenticator-app`, { headers: as(second) })).json();
    const app = new TOTP({
      secret: Secret.fromBase32(setup.secret.replace(/\s/g, '')),
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });
    const confirmed = await page.request.post(`${factors}/authenticator-app/confirm`, {
      headers: as(second),
      data: { code: app.generate() },
    });
    expect(confirmed.status()).toBe(200);
    const registered = await page.request.post(`${base}/api/mdo/v1/users/${second.userID}/epcs/registrations`, {
      headers: as(second),
      data: { number: 'FS6543210', schedules: ['II', 'III', 'IV', 'V'], state: morgan.state, expiresOn: '2029-01-31' },
    });
    expect(registered.status(), await registered.text()).toBe(200);

    // Dr. Morgan, with a platform authenticator that verifies the person (a fingerprint reader).
    const morganLogin = await page.request.post(`${base}/auth-service/login`, {
      data: { email: 'dr.morgan@demo.hcp', username: 'dr.morgan@demo.hcp', password: DEMO_PASSWORD, dashboard: 'MD Dashboard' },
    });
    const morganTokens = (await morganLogin.json()).jwtToken as SessionTokens;
    await addPlatformAuthenticator(context, page);
    await putSession(page, base, morganTokens);
    await page.goto(`${base}/preferences`);
    const add = page.getByRole('region', { name: 'Two-step sign-in' }).getByRole('form', { name: 'Add a passkey' });
    await add.getByLabel('Name for the new passkey').fill('Work laptop');
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByText('Passkey “Work laptop” added.')).toBeVisible();

    // His DEA registration: the check digit is checked before anything is sent.
    await page.getByRole('link', { name: 'Controlled Substances' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Controlled Substances' })).toBeVisible();
    const registrations = page.getByRole('table', { name: 'Your DEA registrations' });
    await expect(registrations.getByRole('row', { name: /BM1111119/ })).toContainText('(expired)');
    // An expired registration grants nothing.
    const permissions = page.getByRole('table', { name: /Permission to sign controlled substances/ });
    await expect(permissions.getByRole('row', { name: new RegExp(morgan.name) })).toContainText(
      'Needs a current DEA registration',
    );
    await page.getByRole('button', { name: 'Add a DEA registration' }).click();
    await expect(page.getByLabel('DEA number')).toBeFocused();
    await page.getByLabel('DEA number').fill('BM1234564');
    await page.getByLabel('State').selectOption(morgan.state);
    await page.getByRole('textbox', { name: 'Valid through' }).fill('06/30/2028');
    await page.getByRole('button', { name: 'Save registration' }).click();
    await expect(page.getByText('This DEA number’s check digit does not match.')).toBeVisible();
    await page.getByLabel('DEA number').fill('BM1234563');
    // This one leaves out Schedule IV.
    await page.getByRole('checkbox', { name: 'Schedule IV' }).uncheck();
    await page.getByRole('button', { name: 'Save registration' }).click();
    await expect(registrations.getByRole('row', { name: /BM1234563/ })).toContainText('II, III, V');
    await expectAccessible(page, { bothWidths: true });

    // He enters his own permission with his password and the passkey; it waits for a second person.
    await page.getByRole('button', { name: `Grant permission for ${morgan.name}` }).click();
    const grant = page.getByRole('dialog', { name: `Grant permission for ${morgan.name}` });
    await grant.getByLabel('Your password').fill(DEMO_PASSWORD);
    await grant.getByRole('button', { name: 'Enter the grant' }).click();
    await expect(page.getByText('Entered. A second person must approve it before it takes effect.')).toBeVisible();
    await expect(permissions.getByRole('row', { name: new RegExp(morgan.name) })).toContainText('waiting for a second person');

    // The colleague approves it, ticking that she checked the registration; she may not sign herself.
    await putSession(page, base, second);
    await page.goto(`${base}/controlled-substances`);
    await page.getByRole('button', { name: `Approve: grant permission for ${morgan.name}` }).click();
    const approve = page.getByRole('dialog', { name: `Approve: grant permission for ${morgan.name}` });
    await approve.getByRole('checkbox').check();
    await approve.getByLabel('Your password').fill(DEMO_PASSWORD);
    await approve.getByLabel('6-digit code from your authenticator app').fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await approve.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText(`Approved. ${morgan.name} may now sign controlled substances here.`)).toBeVisible();
    await expect(permissions.getByRole('row', { name: new RegExp(morgan.name) })).toContainText('May sign');
    await page.goto(`${base}/action-needed/${scheduleFour}/refillAuth`);
    await page.getByRole('button', { name: 'Review and sign' }).click();
    await expect(page.getByText(/You do not have permission to sign controlled substances for this practice/)).toBeVisible();

    // Dr. Morgan: his registration does not cover Schedule IV, so the C-IV refill is refused; he replaces it.
    await putSession(page, base, morganTokens);
    await page.goto(`${base}/action-needed/${scheduleFour}/refillAuth`);
    await page.getByRole('button', { name: 'Review and sign' }).click();
    await expect(page.getByText('Your DEA registration does not cover Schedule IV.')).toBeVisible();
    await page.goto(`${base}/controlled-substances`);
    await page.getByRole('button', { name: 'Remove DEA registration BM1234563' }).click();
    await expect(page.getByText('DEA registration BM1234563 removed.')).toBeVisible();
    await page.getByRole('button', { name: 'Add a DEA registration' }).click();
    await page.getByLabel('DEA number').fill('BM7654329');
    await page.getByLabel('State').selectOption(morgan.state);
    await page.getByRole('textbox', { name: 'Valid through' }).fill('06/30/2028');
    await page.getByRole('button', { name: 'Save registration' }).click();
    await expect(registrations.getByRole('row', { name: /BM7654329/ })).toContainText('II, III, IV, V');

    // Changed after it was shown: a colleague postpones the request while the signing screen is open. This screen's live
    // updates are held back (as on a slow connection), so it still offers to sign: the server refuses, nothing is signed.
    await page.route('**/live-updates', (route) => route.abort());
    await page.goto(`${base}/action-needed/${changedMeanwhile}/refillAuth`);
    await page.getByRole('button', { name: 'Review and sign' }).click();
    const stale = page.getByRole('dialog', { name: 'Sign controlled substance prescription' });
    await expect(stale).toContainText('BM7654329');
    const postponed = await page.request.post(`${base}/api/mdo/v1/prescriptions/${changedMeanwhile}/refills-postponed`, {
      headers: as(second),
      data: { refillPostponedToDate: '2027-01-15', senderName: 'A colleague' },
    });
    expect(postponed.status(), await postponed.text()).toBe(200);
    await stale.getByLabel('Your password').fill(DEMO_PASSWORD);
    await stale.getByRole('button', { name: 'Sign and send' }).click();
    await expect(stale.getByRole('alert')).toHaveText(
      'This prescription changed after it was shown for signing. Nothing was signed: review it again.',
    );
    await stale.getByRole('button', { name: 'Cancel' }).click();
    await page.unroute('**/live-updates');

    // The C-IV refill: what is signed and the legal text, a wrong password refused, then signed.
    await page.goto(`${base}/action-needed/${scheduleFour}/refillAuth`);
    const form = page.getByRole('form', { name: 'Sign controlled substance (C-IV)' });
    await expect(page.getByRole('button', { name: 'Authorize by fax' })).toHaveCount(0);
    await form.getByLabel('Refills').selectOption('2');
    await form.getByRole('button', { name: 'Review and sign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign controlled substance prescription' });
    await expect(dialog).toContainText('BM7654329');
    await expect(dialog).toContainText('Alprazolam 0.5 mg tablet');
    await expect(dialog).toContainText(
      'By completing the two-factor authentication protocol at this time, you are legally signing',
    );
    await expectAccessible(page, { bothWidths: true });
    await dialog.getByLabel('Your password').fill('not the password');
    await dialog.getByRole('button', { name: 'Sign and send' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('The password or the second factor did not match. Nothing was signed.');
    await dialog.getByLabel('Your password').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Sign and send' }).click();
    await expect(page.getByText('Controlled substance signed and sent to the pharmacy by eRx.')).toBeVisible();

    // Schedule II is never refilled.
    await page.goto(`${base}/action-needed/${scheduleTwo}/refillAuth`);
    await page
      .getByRole('form', { name: 'Sign controlled substance (C-II)' })
      .getByRole('button', { name: 'Review and sign' })
      .click();
    await expect(page.getByText('Schedule II prescriptions cannot be refilled.', { exact: false })).toBeVisible();

    // Never in bulk: with a controlled substance selected, the queue offers no authorization, denial or postponement.
    await page.goto(`${base}/action-needed?view=queue&category=refillAuth`);
    const queue = page.getByRole('list', { name: 'Queue, most urgent first' });
    await page.getByRole('searchbox', { name: 'Filter by patient or drug' }).fill('Alprazolam');
    await expect(queue.getByRole('listitem')).toHaveCount(1);
    await queue.getByRole('checkbox').first().check();
    await expect(page.getByText('1 selected', { exact: true })).toBeVisible();
    const bar = page.getByRole('group', { name: 'Decide the selected items' });
    for (const decision of ['Authorize', 'Deny', 'Postpone']) {
      await expect(bar.getByRole('button', { name: new RegExp(`^${decision}`) })).toHaveCount(0);
    }

    // A new controlled prescription in Prescribe Rx, signed the same way (password and passkey), sent by eRx.
    await page.goto(`${base}/prescribe`);
    await expect(page.getByRole('heading', { level: 1, name: 'Prescribe Rx' })).toBeVisible();
    await page.getByRole('radio', { name: 'A new patient' }).check();
    await page.getByLabel('Full name').fill('Casey Controlled');
    await page.getByLabel('Date of birth').fill('04/12/1979');
    await page.getByLabel('Phone').fill('(614) 555-0177');
    await page.getByLabel('Street address').fill('7 Elm St');
    await page.getByLabel('ZIP code').fill('43215');
    await page.getByRole('button', { name: 'Look up ZIP' }).click();
    await expect(page.getByLabel('City')).toHaveValue('Columbus');
    await page.getByLabel('Find a product (name or NDC)').fill('alprazolam');
    await page.getByLabel('Find a product (name or NDC)').press('Enter');
    await page.getByRole('radio', { name: /Alprazolam 0\.5 mg/ }).check();
    await page.getByLabel('Quantity').fill('30');
    await page.getByLabel('Days supply').fill('30');
    await page.getByLabel(/^Refills/).fill('1');
    await page.getByLabel('Directions (sig)').fill('Take 1 tablet by mouth at bedtime as needed');
    await page.getByRole('button', { name: 'Review and sign' }).click();
    const newRx = page.getByRole('dialog', { name: 'Sign controlled substance prescription' });
    await expect(newRx).toContainText('Casey Controlled, born 04/12/1979');
    await expect(newRx).toContainText('C-IV');
    await newRx.getByLabel('Your password').fill(DEMO_PASSWORD);
    await newRx.getByRole('button', { name: 'Sign and send' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Prescription sent' })).toBeVisible();
    await expect(page.getByText(/Alprazolam was sent by eRx to the pharmacy\. Order P\d{8}\./)).toBeVisible();

    // The practice's report of the day: the signature, and the incidents.
    await page.goto(`${base}/controlled-substances`);
    await expect(page.getByText('Days run midnight to midnight, America/New York time.').first()).toBeVisible();
    await page.getByRole('button', { name: 'Show report' }).click();
    const signedTable = page.getByRole('table', { name: /Controlled substances signed on/ });
    await expect(signedTable.getByRole('row', { name: /Alprazolam/ })).toHaveCount(2);
    await expect(signedTable).toContainText('BM7654329');
    await expect(signedTable).toContainText('Casey Controlled');
    const incidents = page.getByRole('table', { name: /Incidents and permission changes/ });
    await expect(incidents).toContainText('Two-factor authentication failed while signing a controlled substance.');
    await expect(incidents).toContainText('Signing refused: Schedule II prescriptions cannot be refilled.');
    await expect(incidents).toContainText('Signing refused: Your DEA registration does not cover Schedule IV.');
    await expect(incidents).toContainText('Signing refused: This prescription changed after it was shown for signing.');
    await expect(incidents).toContainText(`Approved: grant permission for ${morgan.name}.`);
    await expectAccessible(page, { bothWidths: true });
  } finally {
    await stopServer(server);
  }
});
