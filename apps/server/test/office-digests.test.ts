/**
 * Notices to practices (issue 20, spec §4): a practice on e-mail gets one mail per interval counting the pharmacy's
 * new requests per category with a link, and so do its portal users unless they or their HCP record said no; a
 * practice on fax gets a one-page cover sheet through the fax gateway (a local fake here) with a one-time link;
 * `both` gets both, `off` nothing. Never a patient's name or drug. Failed sends are retried, then given up.
 */
import { EVENT_TYPES, generateRequestId, NOTICE_LINK_MESSAGES, ROUTES } from '@hcp/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { type FakeFaxGateway, startFaxGateway } from './support/fax-gateway.ts';
import { pdfPages, pdfText } from './support/pdf-text.ts';

let t: TestApp;
let gateway: FakeFaxGateway;
let clock = new Date(TEST_NOW);
let morgan: { id: string; name: string };
let patel: { id: string; name: string };
let morganRx: { id: string; patientId: string; drugName: string }[];
let patelRx: string;

const advance = (minutes: number) => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};
const db = () => t.database.db;

beforeAll(async () => {
  gateway = await startFaxGateway();
  t = await buildTestApp({
    now: () => clock,
    env: { PUBLIC_URL: 'https://portal.test', FAX_GATEWAY_URL: gateway.url, FAX_GATEWAY_KEY: 'fax-key-for-tests' },
  });
  const officeOf = async (email: string) => {
    const id = (await db().select({ id: s.users.mdOfficeId }).from(s.users).where(eq(s.users.email, email)))[0]?.id as string;
    return { id, name: (await db().select().from(s.mdOffices).where(eq(s.mdOffices.id, id)))[0]?.name as string };
  };
  morgan = await officeOf('dr.morgan@demo.hcp');
  patel = await officeOf('dr.patel@demo.hcp');
  await db()
    .update(s.mdOffices)
    .set({ communicationMode: 'email', email: 'office@morgan.test', fax: '(555) 555-0101' })
    .where(eq(s.mdOffices.id, morgan.id));
  await db()
    .update(s.mdOffices)
    .set({ communicationMode: 'fax', email: 'office@patel.test', fax: '(555) 555-0100' })
    .where(eq(s.mdOffices.id, patel.id));
  // The HCP records of Morgan's users allow e-mail (the seed picks their preferences at random).
  const staffIds = (await db().select({ id: s.users.mdStaffId }).from(s.users).where(eq(s.users.mdOfficeId, morgan.id))).flatMap(
    (u) => (u.id ? [u.id] : []),
  );
  await db().update(s.mdStaff).set({ communicationMode: 'email', emailOptIn: 'email' }).where(inArray(s.mdStaff.id, staffIds));
  morganRx = await db()
    .select({ id: s.prescriptions.id, patientId: s.prescriptions.patientId, drugName: s.prescriptions.drugName })
    .from(s.prescriptions)
    .where(eq(s.prescriptions.mdOfficeId, morgan.id))
    .limit(4);
  patelRx = (
    await db().select({ id: s.prescriptions.id }).from(s.prescriptions).where(eq(s.prescriptions.mdOfficeId, patel.id)).limit(1)
  )[0]?.id as string;
});
afterAll(async () => {
  await t.close();
  await gateway.close();
});

/** A pharmacy's request as the inbound API records it on the prescription's timeline. */
async function requested(prescriptionId: string, category: string) {
  await db().insert(s.prescriptionEvents).values({ prescriptionId, type: EVENT_TYPES.pharmacyRequested, data: { category } });
}
const digestsTo = (to: string) => t.mail.filter((m) => m.kind === 'office-digest' && m.to === to);

/** Nothing that names a patient or a drug of the practice. */
async function expectNoPatientData(texts: (string | undefined)[]) {
  const patients = await db()
    .select()
    .from(s.patients)
    .where(
      inArray(
        s.patients.id,
        morganRx.map((r) => r.patientId),
      ),
    );
  for (const text of texts) {
    expect(text).toBeTruthy();
    for (const p of patients) {
      expect(text).not.toContain(p.lastName);
      expect(text).not.toContain(p.firstName);
    }
    for (const rx of morganRx) expect(text).not.toContain(rx.drugName);
  }
}

describe('e-mail digests', () => {
  it('mails the practice and its users once per interval with counts per category and a link, never a patient or a drug', async () => {
    const [a, b, c] = morganRx;
    if (!a || !b || !c) throw new Error('the demo seed has too few prescriptions at Morgan Family Medicine');
    await requested(a.id, 'refillAuth');
    await requested(b.id, 'priorAuth');
    await requested(c.id, 'refillAuth');
    const [first, second] = await Promise.all([t.app.officeDigests.runOnce(), t.app.officeDigests.runOnce()]);
    expect(first + second).toBe(1);
    for (const to of ['office@morgan.test', 'dr.morgan@demo.hcp', 'staff.lee@demo.hcp']) expect(digestsTo(to)).toHaveLength(1);
    const [mail] = digestsTo('office@morgan.test');
    expect(mail?.subject).toBe(`HCP Portal: 3 new requests for ${morgan.name}`);
    expect(mail?.text).toContain('- Refill authorizations: 2');
    expect(mail?.text).toContain('- Prior authorizations: 1');
    expect(mail?.text).toContain('https://portal.test/action-needed');
    await expectNoPatientData([mail?.subject, mail?.text]);
    // An e-mail practice gets no fax.
    expect(gateway.faxes.filter((f) => f.to === '+15555550101')).toEqual([]);

    // Another request within the interval waits for the next digest, which counts only it.
    await requested(a.id, 'altMed');
    advance(10);
    expect(await t.app.officeDigests.runOnce()).toBe(0);
    advance(6);
    expect(await t.app.officeDigests.runOnce()).toBe(1);
    const latest = digestsTo('office@morgan.test').at(-1);
    expect(latest?.subject).toBe(`HCP Portal: 1 new request for ${morgan.name}`);
    expect(latest?.text).toContain('- Alternative medications: 1');
    expect(latest?.text).not.toContain('Refill authorizations');

    // Nothing new: no mail, however long it has been.
    const before = t.mail.length;
    advance(60);
    expect(await t.app.officeDigests.runOnce()).toBe(0);
    expect(t.mail.length).toBe(before);
    const notices = await db().select().from(s.officeNotices).where(eq(s.officeNotices.mdOfficeId, morgan.id));
    expect(notices.length).toBe(6);
    expect(notices.every((n) => n.status === 'sent' && n.channel === 'email' && n.attempts === 1)).toBe(true);
  });

  it('honours a user’s own opt-out in Preferences and the e-mail choice of their HCP record', async () => {
    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    const prefs = (newRequestNotices?: boolean) =>
      injectAs(t.app, lee, {
        method: 'POST',
        url: `/api/mdo/v1/users/${lee.userID}/preferences`,
        headers: { 'x-request-id': generateRequestId() },
        payload: {
          userName: 'Lee Staff',
          skipPriorAuthDismissNotice: false,
          skipErxConfirmation: false,
          ...(newRequestNotices === undefined ? {} : { newRequestNotices }),
        },
      });
    const off = await prefs(false);
    expect(off.statusCode).toBe(200);
    expect(off.json().mdOfficeUserPrefs.newRequestNotices).toBe(false);
    // A client that does not send the choice leaves it as it is.
    expect((await prefs()).json().mdOfficeUserPrefs.newRequestNotices).toBe(false);
    const morganStaff = (await db().select().from(s.users).where(eq(s.users.email, 'dr.morgan@demo.hcp')))[0]
      ?.mdStaffId as string;
    await db().update(s.mdStaff).set({ emailOptIn: 'doNot' }).where(eq(s.mdStaff.id, morganStaff));

    const [a] = morganRx;
    await requested(a?.id as string, 'refillAuth');
    advance(20);
    expect(await t.app.officeDigests.runOnce()).toBe(1);
    expect(digestsTo('office@morgan.test')).toHaveLength(3);
    expect(digestsTo('staff.lee@demo.hcp')).toHaveLength(2);
    expect(digestsTo('dr.morgan@demo.hcp')).toHaveLength(2);

    expect((await prefs(true)).json().mdOfficeUserPrefs.newRequestNotices).toBe(true);
    await db().update(s.mdStaff).set({ emailOptIn: 'email' }).where(eq(s.mdStaff.id, morganStaff));
  });
});

describe('fax cover sheets', () => {
  it('faxes a fax practice one page with counts and a one-time link through the gateway, and mails nothing', async () => {
    await requested(patelRx, 'refillAuth');
    await requested(patelRx, 'phoneException');
    advance(20);
    expect(await t.app.officeDigests.runOnce()).toBe(1);
    const fax = gateway.faxes.find((f) => f.to === '+15555550100');
    expect(fax?.authorization).toBe('Bearer fax-key-for-tests');
    expect(fax?.contentType).toBe('application/pdf');
    expect(fax?.idempotencyKey).toBe(fax?.reference);
    const pdf = fax?.pdf as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPages(pdf)).toBe(1);
    const text = pdfText(pdf);
    expect(text).toContain('HCP Portal — new requests from the pharmacy');
    expect(text).toContain('Refill authorizations: 1');
    expect(text).toContain('Phone exceptions: 1');
    expect(text.some((line) => line.startsWith(`To: ${patel.name}`) && line.endsWith('2 new requests'))).toBe(true);
    // Times read as everywhere in the portal (MM/DD/YYYY h:mm am), with the zone named.
    expect(text.some((line) => / · \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [ap]m [A-Z]{3,5} · /.test(line))).toBe(true);
    expect(text.some((line) => /^https:\/\/portal\.test\/notice\/[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/.test(line))).toBe(true);
    await expectNoPatientData([text.join('\n')]);
    expect(digestsTo('office@patel.test')).toEqual([]);
    const [notice] = await db().select().from(s.officeNotices).where(eq(s.officeNotices.mdOfficeId, patel.id));
    expect(notice).toMatchObject({ channel: 'fax', status: 'sent', externalId: `fax-${gateway.faxes.length}` });
  });

  it('retries a fax the gateway could not take, gives up at once on a refusal, and sends nothing when off', async () => {
    const faxesTo = () => gateway.faxes.filter((f) => f.to === '+15555550100');
    const sentBefore = faxesTo().length;
    gateway.answer = (n) => (n === gateway.faxes.length && faxesTo().length === sentBefore ? 503 : 202);
    await requested(patelRx, 'refillAuth');
    advance(20);
    await t.app.officeDigests.runOnce();
    const notices = () =>
      db().select().from(s.officeNotices).where(eq(s.officeNotices.mdOfficeId, patel.id)).orderBy(s.officeNotices.createdAt);
    let latest = (await notices()).at(-1);
    expect(latest).toMatchObject({ status: 'pending', attempts: 1, lastError: 'The fax gateway answered 503.' });
    // Not due yet: nothing is sent again.
    await t.app.officeDigests.runOnce();
    expect(faxesTo().length).toBe(sentBefore + 1);
    advance(2);
    await t.app.officeDigests.runOnce();
    latest = (await notices()).at(-1);
    expect(latest).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(faxesTo().length).toBe(sentBefore + 2);
    expect(faxesTo().at(-1)?.reference).toBe(faxesTo().at(-2)?.reference);

    gateway.answer = () => 400;
    await requested(patelRx, 'altMed');
    advance(20);
    await t.app.officeDigests.runOnce();
    latest = (await notices()).at(-1);
    expect(latest).toMatchObject({ status: 'dead', attempts: 1, lastError: 'The fax gateway answered 400.' });
    gateway.answer = () => 202;

    const count = gateway.faxes.length;
    await db().update(s.mdOffices).set({ communicationMode: 'off' }).where(eq(s.mdOffices.id, patel.id));
    await requested(patelRx, 'refillAuth');
    advance(60);
    expect(await t.app.officeDigests.runOnce()).toBe(0);
    expect(gateway.faxes.length).toBe(count);
  });

  it('opens the list once for the practice’s own people; used, expired, another practice’s or malformed links are refused', async () => {
    await db().update(s.mdOffices).set({ communicationMode: 'both' }).where(eq(s.mdOffices.id, morgan.id));
    const mailsBefore = digestsTo('office@morgan.test').length;
    const faxNoticeIds = async () =>
      (
        await db()
          .select({ id: s.officeNotices.id })
          .from(s.officeNotices)
          .where(and(eq(s.officeNotices.mdOfficeId, morgan.id), eq(s.officeNotices.channel, 'fax')))
      ).map((n) => n.id);
    const newLink = async () => {
      const before = new Set(await faxNoticeIds());
      await requested(morganRx[1]?.id as string, 'priorAuth');
      advance(20);
      expect(await t.app.officeDigests.runOnce()).toBe(1);
      // The cover sheet of this round's notice, by its reference (issue 44: the last fax to the number was sometimes
      // another round's, whose code was used already).
      const [notice] = (await faxNoticeIds()).filter((id) => !before.has(id));
      const fax = gateway.faxes.find((f) => f.reference === notice);
      const line = pdfText(fax?.pdf as Buffer).find((l) => l.includes('/notice/'));
      return line?.split('/notice/')[1] as string;
    };
    const code = await newLink();
    // `both`: the mail went out beside the fax.
    expect(digestsTo('office@morgan.test').length).toBe(mailsBefore + 1);
    expect(ROUTES.noticeLink).toBe('/notice/:code');

    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    const admin = await signIn(t.app, 'admin@demo.hcp');
    const vam = await signIn(t.app, 'vam.staff@demo.hcp');
    const redeem = (who: typeof lee, typed: string) =>
      injectAs(t.app, who, {
        method: 'POST',
        url: `/api/mdo/v1/users/${who.userID}/notice-links/redeem`,
        headers: { 'x-request-id': generateRequestId() },
        payload: { code: typed },
      });
    for (const other of [admin, vam]) {
      const res = await redeem(other, code);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(NOTICE_LINK_MESSAGES.notFound);
    }
    // Typed from paper: lower case and spaces instead of dashes are fine.
    const opened = await redeem(lee, code.toLowerCase().replace(/-/g, ' '));
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ practiceId: morgan.id });
    const again = await redeem(lee, code);
    expect(again.statusCode).toBe(410);
    expect(again.json().error.message).toBe(NOTICE_LINK_MESSAGES.used);
    const [audit] = await db()
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'notice-link.use'), eq(s.auditLog.actorUserId, lee.userID)));
    expect(audit?.entityId).toBe(morgan.id);

    const expiring = await newLink();
    advance(8 * 24 * 60);
    expect((await redeem(lee, expiring)).statusCode).toBe(410);
    const bad = await redeem(lee, 'not-a-code');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    expect((await redeem(lee, 'ABCD-EFGH-JKMN-PQRS')).statusCode).toBe(404);
    // The code never reaches a log line.
    expect(JSON.stringify(t.logs)).not.toContain(code.replace(/-/g, ''));
  });
});
