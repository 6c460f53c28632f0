/**
 * The practices' e-mail digests (issue 20, spec §4): a practice that chose e-mail gets one mail per interval counting
 * the pharmacy's new requests per category, with a link; never a patient's name or drug; a practice on fax or off
 * gets none; nothing new, no mail; two rounds at once send one.
 */
import { EVENT_TYPES } from '@hcp/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { TEST_NOW } from './support/constants.ts';

let t: TestApp;
let clock = new Date(TEST_NOW);
let morganOffice: { id: string; name: string };
let patelOffice: string;
let morganRx: { id: string; patientId: string; drugName: string }[];

beforeAll(async () => {
  t = await buildTestApp({ now: () => clock, env: { PUBLIC_URL: 'https://portal.test' } });
  const db = t.database.db;
  const officeOf = async (email: string) =>
    (await db.select({ id: s.users.mdOfficeId }).from(s.users).where(eq(s.users.email, email)))[0]?.id as string;
  const id = await officeOf('dr.morgan@demo.hcp');
  morganOffice = { id, name: (await db.select().from(s.mdOffices).where(eq(s.mdOffices.id, id)))[0]?.name as string };
  patelOffice = await officeOf('dr.patel@demo.hcp');
  await db.update(s.mdOffices).set({ communicationMode: 'email', email: 'office@morgan.test' }).where(eq(s.mdOffices.id, id));
  await db
    .update(s.mdOffices)
    .set({ communicationMode: 'fax', email: 'office@patel.test' })
    .where(eq(s.mdOffices.id, patelOffice));
  morganRx = await db
    .select({ id: s.prescriptions.id, patientId: s.prescriptions.patientId, drugName: s.prescriptions.drugName })
    .from(s.prescriptions)
    .where(eq(s.prescriptions.mdOfficeId, id))
    .limit(4);
});
afterAll(() => t.close());

/** A pharmacy's request as the inbound API records it on the prescription's timeline. */
async function requested(prescriptionId: string, category: string) {
  await t.database.db
    .insert(s.prescriptionEvents)
    .values({ prescriptionId, type: EVENT_TYPES.pharmacyRequested, data: { category } });
}
const digestsTo = (to: string) => t.mail.filter((m) => m.kind === 'office-digest' && m.to === to);

describe('office digests', () => {
  it('mails the practice once per interval with counts per category and a link, never a patient or a drug', async () => {
    const [a, b, c] = morganRx;
    if (!a || !b || !c) throw new Error('the demo seed has too few prescriptions at Morgan Family Medicine');
    await requested(a.id, 'refillAuth');
    await requested(b.id, 'priorAuth');
    await requested(c.id, 'refillAuth');
    const [first, second] = await Promise.all([t.app.officeDigests.runOnce(), t.app.officeDigests.runOnce()]);
    expect(first + second).toBe(1);
    const [mail] = digestsTo('office@morgan.test');
    expect(mail?.subject).toBe(`HCP Portal: 3 new requests for ${morganOffice.name}`);
    expect(mail?.text).toContain('- Refill authorizations: 2');
    expect(mail?.text).toContain('- Prior authorizations: 1');
    expect(mail?.text).toContain('https://portal.test/action-needed');
    const patients = await t.database.db
      .select()
      .from(s.patients)
      .where(
        inArray(
          s.patients.id,
          morganRx.map((r) => r.patientId),
        ),
      );
    for (const text of [mail?.subject, mail?.text]) {
      for (const p of patients) {
        expect(text).not.toContain(p.lastName);
        expect(text).not.toContain(p.firstName);
      }
      for (const rx of morganRx) expect(text).not.toContain(rx.drugName);
    }

    // Another request within the interval waits for the next digest, which counts only it.
    await requested(a.id, 'altMed');
    clock = new Date(clock.getTime() + 10 * 60_000);
    expect(await t.app.officeDigests.runOnce()).toBe(0);
    clock = new Date(clock.getTime() + 6 * 60_000);
    expect(await t.app.officeDigests.runOnce()).toBe(1);
    const latest = digestsTo('office@morgan.test').at(-1);
    expect(latest?.subject).toBe(`HCP Portal: 1 new request for ${morganOffice.name}`);
    expect(latest?.text).toContain('- Alternative medications: 1');
    expect(latest?.text).not.toContain('Refill authorizations');

    // Nothing new: no mail, however long it has been.
    clock = new Date(clock.getTime() + 60 * 60_000);
    expect(await t.app.officeDigests.runOnce()).toBe(0);
    const [outbox] = await t.database.db
      .select()
      .from(s.outbox)
      .where(and(eq(s.outbox.channel, 'email'), eq(s.outbox.recipient, 'office@morgan.test')))
      .limit(1);
    expect(outbox?.status).toBe('sent');
  });

  it('sends nothing to a practice that chose fax or turned communication off', async () => {
    const [patelRx] = await t.database.db
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .where(eq(s.prescriptions.mdOfficeId, patelOffice))
      .limit(1);
    await requested(patelRx?.id as string, 'refillAuth');
    clock = new Date(clock.getTime() + 60 * 60_000);
    await t.app.officeDigests.runOnce();
    await t.database.db.update(s.mdOffices).set({ communicationMode: 'off' }).where(eq(s.mdOffices.id, patelOffice));
    clock = new Date(clock.getTime() + 60 * 60_000);
    await t.app.officeDigests.runOnce();
    expect(digestsTo('office@patel.test')).toEqual([]);
  });
});
