/** Action Needed: the nested list, every action with its state rules, idempotency, scope and the print page. */
import {
  ACTION_NEEDED_QUERY_TYPES,
  type ActionEntry,
  type ActionNeededDoctor,
  type ActionNeededPatient,
  type ActionNeededPrescription,
  actionNeededResponseSchema,
  buildCardGroups,
  CONFLICT_MESSAGES,
  countActionNeeded,
  deriveActionTypes,
  flattenActionNeeded,
  generateRequestId,
  type Tokens,
} from '@hcp/contract';
import { and, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { PRINT_STYLE } from '../src/features/action-needed/print.ts';
import { purgeIdempotencyKeys } from '../src/plugins/idempotency.ts';
import { styleHash } from '../src/plugins/security.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';

let t: TestApp;
let morgan: Tokens;
let clock = TEST_NOW;
beforeAll(async () => {
  t = await buildTestApp({ now: () => clock });
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
});
afterAll(() => t.close());

const listUrl = (userId: string, actionType: string = ACTION_NEEDED_QUERY_TYPES.all) =>
  `/api/mdo/v2/users/${userId}/action-needed?actionType=${actionType}`;
async function list(tokens: Tokens = morgan, actionType?: string) {
  const res = await injectAs(t.app, tokens, { method: 'GET', url: listUrl(tokens.userID, actionType) });
  expect(res.statusCode).toBe(200);
  return actionNeededResponseSchema.parse(res.json());
}
type Entry = ActionEntry<ActionNeededPrescription, ActionNeededPatient, ActionNeededDoctor>;
const entriesOf = async (tokens?: Tokens, actionType?: string): Promise<Entry[]> =>
  flattenActionNeeded<ActionNeededPrescription, ActionNeededPatient, ActionNeededDoctor>(
    (await list(tokens, actionType)).doctors,
  );

/** A write with a fresh (or given) request id, as the client sends it. */
function write(url: string, payload: unknown, requestId = generateRequestId(), tokens: Tokens = morgan) {
  const options: InjectOptions = {
    method: 'POST',
    url,
    payload: payload as InjectOptions['payload'],
    headers: { 'x-request-id': requestId },
  };
  return injectAs(t.app, tokens, options);
}
const rxUrl = (id: string, path: string) => `/api/mdo/v1/prescriptions/${id}/${path}`;

/** Prescriptions of Dr Morgan's offices that need a given action right now (from the list itself). */
async function pick(
  type: 'refillAuth' | 'priorAuth' | 'phoneException' | 'altMed' | 'appeals',
  extra?: (rx: { priorAuthStatus: string | null }) => boolean,
) {
  const entries = await entriesOf();
  const entry = entries.find((e) => e.actionTypes.includes(type) && (!extra || extra(e.prescription)));
  if (!entry) throw new Error(`the demo seed has no ${type} prescription for Dr Morgan`);
  return entry;
}
const row = async (id: string) => (await t.database.db.select().from(s.prescriptions).where(eq(s.prescriptions.id, id)))[0];
const eventsOf = (id: string) =>
  t.database.db.select().from(s.prescriptionEvents).where(eq(s.prescriptionEvents.prescriptionId, id));
const outboxOf = (id: string) => t.database.db.select().from(s.outbox).where(eq(s.outbox.prescriptionId, id));

describe('GET /api/mdo/v2/users/{userId}/action-needed', () => {
  it('answers the nested shape; every prescription needs something; counts follow the contract rules', async () => {
    const answer = await list();
    expect(answer.doctors.length).toBeGreaterThan(0);
    const entries = flattenActionNeeded(answer.doctors);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.actionTypes.length).toBeGreaterThan(0);
    const counts = countActionNeeded(entries);
    expect(counts.total).toBe(counts.altMed + counts.appeals + counts.phoneException + counts.priorAuth + counts.refillAuth);
    for (const type of ['refillAuth', 'priorAuth', 'phoneException', 'altMed', 'appeals'] as const) {
      expect(counts[type], type).toBeGreaterThan(0);
    }
    const groups = buildCardGroups(entries);
    // One card per prescriber and patient; every prescription on a card is that prescriber's.
    expect(groups.all.length).toBe(new Set(entries.map((e) => `${e.doctor.doctorId}/${e.patient.id}`)).size);
    const rxRows = await t.database.db
      .select({ id: s.prescriptions.id, prescriberId: s.prescriptions.prescriberId })
      .from(s.prescriptions);
    const prescriberOf = new Map(rxRows.map((r) => [r.id, r.prescriberId]));
    for (const card of groups.all) {
      for (const rx of card.prescriptions) expect(prescriberOf.get(rx.id)).toBe(card.doctor.doctorId);
    }
  });

  it('lists exactly the prescriptions of the user’s offices that need action (checked against the table)', async () => {
    const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID));
    const memberOffices = await t.database.db
      .select({ id: s.officeMembers.mdOfficeId })
      .from(s.officeMembers)
      .where(eq(s.officeMembers.mdStaffId, user?.mdStaffId as string));
    const officeIds = [...new Set([user?.mdOfficeId as string, ...memberOffices.map((o) => o.id)])];
    const rows = await t.database.db.select().from(s.prescriptions).where(inArray(s.prescriptions.mdOfficeId, officeIds));
    const today = '2026-11-20';
    const expected = rows
      .filter(
        (r) =>
          deriveActionTypes({
            needsRefillAuth: r.needsRefillAuth && (r.refillPostponedUntil === null || r.refillPostponedUntil <= today),
            phoneException: r.phoneException,
            substitutionStatus: r.substitutionStatus,
            priorAuthStatus: r.priorAuthStatus,
            hcpActionRequired: r.hcpActionRequired,
          }).length > 0,
      )
      .map((r) => r.id)
      .sort();
    const listed = (await entriesOf()).map((e) => e.prescription.id).sort();
    expect(listed).toEqual(expected);
  });

  it('filters by category and by prescriber', async () => {
    const refills = await entriesOf(morgan, ACTION_NEEDED_QUERY_TYPES.refillAuth);
    expect(refills.length).toBeGreaterThan(0);
    for (const e of refills) expect(e.actionTypes).toContain('refillAuth');
    const all = await list();
    const doctorId = all.doctors[0]?.doctorId as string;
    const res = await injectAs(t.app, morgan, { method: 'GET', url: `${listUrl(morgan.userID)}&filterBy=${doctorId}` });
    expect(res.json().doctors.map((d: { doctorId: string }) => d.doctorId)).toEqual([doctorId]);
  });

  it('refuses a bad actionType or filterBy with 400 and another user’s list with 404', async () => {
    const bad = await injectAs(t.app, morgan, { method: 'GET', url: listUrl(morgan.userID, 'EVERYTHING') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('querystring.actionType');
    const badFilter = await injectAs(t.app, morgan, { method: 'GET', url: `${listUrl(morgan.userID)}&filterBy=x` });
    expect(badFilter.statusCode).toBe(400);
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const other = await injectAs(t.app, morgan, { method: 'GET', url: listUrl(staff.userID) });
    expect(other.statusCode).toBe(404);
  });

  it('costs at most 3 SQL statements whatever the size of the list, and writes one audit row', async () => {
    const before = t.database.stats.queries;
    await list();
    expect(t.database.stats.queries - before).toBeLessThanOrEqual(3);
    const audits = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'action-needed.read'), eq(s.auditLog.actorUserId, morgan.userID)));
    expect(audits.length).toBeGreaterThan(0);
  });

  it('hides a refill postponed to a later day until that day', async () => {
    const [postponed] = await t.database.db
      .select()
      .from(s.prescriptions)
      .innerJoin(s.users, eq(s.users.mdOfficeId, s.prescriptions.mdOfficeId))
      .where(
        and(
          eq(s.users.id, morgan.userID),
          isNotNull(s.prescriptions.refillPostponedUntil),
          sql`${s.prescriptions.refillPostponedUntil} > '2026-11-20'`,
          eq(s.prescriptions.needsRefillAuth, true),
          eq(s.prescriptions.phoneException, false),
          eq(s.prescriptions.hcpActionRequired, false),
          sql`${s.prescriptions.priorAuthStatus} is null`,
          sql`${s.prescriptions.substitutionStatus} is null`,
        ),
      )
      .limit(1);
    expect(postponed).toBeDefined();
    const id = postponed?.prescriptions.id as string;
    expect((await entriesOf()).some((e) => e.prescription.id === id)).toBe(false);
    clock = new Date(`${postponed?.prescriptions.refillPostponedUntil}T12:00:00Z`);
    try {
      const entry = (await entriesOf()).find((e) => e.prescription.id === id);
      expect(entry?.actionTypes).toEqual(['refillAuth']);
    } finally {
      clock = TEST_NOW;
    }
  });
});

describe('refill actions', () => {
  it('authorise by fax: clears the request, stores refills and sig, writes an event and a fax', async () => {
    const { prescription } = await pick('refillAuth');
    const res = await write(rxUrl(prescription.id, 'refills-authorized/fax'), {
      refills: 3,
      sig: 'Take one daily',
      senderName: 'Dr. Alex Morgan',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', prescriptionIds: [prescription.id] });
    const after = await row(prescription.id);
    expect(after).toMatchObject({ needsRefillAuth: false, refills: 3, sig: 'Take one daily' });
    expect((await eventsOf(prescription.id)).map((e) => e.type)).toContain('REFILL_AUTHORIZED_FAX');
    expect((await outboxOf(prescription.id)).map((o) => o.channel)).toEqual(['fax']);
    expect((await entriesOf()).some((e) => e.prescription.id === prescription.id && e.actionTypes.includes('refillAuth'))).toBe(
      false,
    );
    // Acting again (another request) finds it already done: 409, nothing more written.
    const again = await write(rxUrl(prescription.id, 'refills-authorized/fax'), { refills: 1, sig: 'x', senderName: 'y' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CONFLICT_MESSAGES.refillAuthorizedFax);
    expect((await row(prescription.id))?.refills).toBe(3);
  });

  it('saves “don’t ask me again before sending” with a faxed decision, keeps it out of the pharmacy’s message, and saves nothing when refused', async () => {
    const userRow = async () => (await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID)))[0];
    await t.database.db.update(s.users).set({ skipSendConfirmation: false }).where(eq(s.users.id, morgan.userID));
    const { prescription } = await pick('refillAuth');
    // A refused call saves nothing, the choice included (an id outside the user's reach).
    const missing = await write(rxUrl('00000000-0000-4000-8000-000000000000', 'refills-denied'), {
      reason: 'NEED_OFFICE_VISIT',
      senderName: 'Dr. Alex Morgan',
      skipSendConfirmation: true,
    });
    expect(missing.statusCode).toBe(404);
    expect((await userRow())?.skipSendConfirmation).toBe(false);

    const res = await write(rxUrl(prescription.id, 'refills-denied'), {
      reason: 'NEED_OFFICE_VISIT',
      senderName: 'Dr. Alex Morgan',
      skipSendConfirmation: true,
    });
    expect(res.statusCode).toBe(200);
    expect((await userRow())?.skipSendConfirmation).toBe(true);
    const [message] = await outboxOf(prescription.id);
    expect(JSON.stringify(message?.payload)).not.toContain('skipSendConfirmation');
    const details = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/users/${morgan.userID}/mdo-user-details` });
    expect(details.json().mdOfficeUserPrefs.skipSendConfirmation).toBe(true);
    await t.database.db.update(s.users).set({ skipSendConfirmation: false }).where(eq(s.users.id, morgan.userID));
  });

  it('a repeated request id answers the first answer and acts once', async () => {
    const { prescription } = await pick('refillAuth');
    const requestId = generateRequestId();
    const first = await write(rxUrl(prescription.id, 'refills-authorized/erx'), { skipErxConfirmation: false }, requestId);
    const second = await write(rxUrl(prescription.id, 'refills-authorized/erx'), { skipErxConfirmation: false }, requestId);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    // Events of this request only: the seed's timelines hold earlier answers of their own.
    expect((await eventsOf(prescription.id)).filter((e) => e.requestId === requestId)).toHaveLength(1);
    expect((await eventsOf(prescription.id)).filter((e) => e.type === 'REFILL_AUTHORIZED_ERX')).toHaveLength(1);
    expect((await outboxOf(prescription.id)).map((o) => o.channel)).toEqual(['erx']);
    const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID));
    expect(user?.skipErxConfirmation).toBe(false);
    // The same request id on another call is refused.
    const reused = await write(
      rxUrl(prescription.id, 'refills-denied'),
      { reason: 'NEED_OFFICE_VISIT', senderName: 'x' },
      requestId,
    );
    expect(reused.statusCode).toBe(409);
  });

  it('two copies of one request sent at once act once', async () => {
    const { prescription } = await pick('refillAuth');
    const requestId = generateRequestId();
    const url = rxUrl(prescription.id, 'refills-denied');
    const body = { reason: 'NEED_OFFICE_VISIT', senderName: 'Dr. Alex Morgan' };
    const answers = await Promise.all([write(url, body, requestId), write(url, body, requestId)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual(expect.arrayContaining([200]));
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    const denials = (await eventsOf(prescription.id)).filter((e) => e.type === 'REFILL_DENIED');
    expect(denials.filter((e) => e.requestId === requestId)).toHaveLength(1);
  });

  it('deny with a reason shows the denial as the order status', async () => {
    const { prescription } = await pick('refillAuth');
    const res = await write(rxUrl(prescription.id, 'refills-denied'), { reason: 'NEED_OFFICE_VISIT', senderName: 'Staff Lee' });
    expect(res.statusCode).toBe(200);
    expect(await row(prescription.id)).toMatchObject({
      needsRefillAuth: false,
      orderStatus: 'Refill denied: office visit needed',
    });
    const bad = await write(rxUrl(prescription.id, 'refills-denied'), { reason: 'BORED', senderName: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('body.reason');
  });

  it('postpone: a future date within a year; the item leaves the list until then', async () => {
    const { prescription } = await pick('refillAuth');
    const url = rxUrl(prescription.id, 'refills-postponed');
    for (const [date, message] of [
      ['2026-11-20', 'Choose a date after today.'],
      // A year from the latest day on earth at this instant (11/21 at UTC+14): the server does not know the zone.
      ['2027-11-22', 'Choose a date within one year.'],
    ]) {
      const res = await write(url, { refillPostponedToDate: date, senderName: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ path: 'body.refillPostponedToDate', message }]);
    }
    const malformed = await write(url, { refillPostponedToDate: '12/01/2026', senderName: 'x' });
    expect(malformed.statusCode).toBe(400);
    const ok = await write(url, { refillPostponedToDate: '2026-12-01', senderName: 'Dr. Alex Morgan' });
    expect(ok.statusCode).toBe(200);
    expect((await row(prescription.id))?.refillPostponedUntil).toBe('2026-12-01');
    expect((await entriesOf()).some((e) => e.prescription.id === prescription.id && e.actionTypes.includes('refillAuth'))).toBe(
      false,
    );
  });

  it('postpone: a New York prescriber’s “tomorrow” after 19:00 is taken, though the server’s UTC calendar has moved on', async () => {
    const { prescription } = await pick('refillAuth');
    const url = rxUrl(prescription.id, 'refills-postponed');
    clock = new Date('2026-11-21T02:00:00Z'); // 21:00 on 11/20 in New York
    try {
      const res = await write(url, { refillPostponedToDate: '2026-11-21', senderName: 'Dr. Alex Morgan' });
      expect(res.statusCode).toBe(200);
      expect((await row(prescription.id))?.refillPostponedUntil).toBe('2026-11-21');
    } finally {
      clock = TEST_NOW;
    }
  });
});

describe('alternative medication', () => {
  it('records the chosen alternative (from the offered list) or no substitution; needs one of the two', async () => {
    const { prescription } = await pick('altMed');
    expect(prescription.alternativeMeds.length).toBeGreaterThan(0);
    const url = rxUrl(prescription.id, 'substitution/alternative-med');
    const missing = await write(url, { noSubstitute: false, senderName: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].path).toBe('body.selectedAlternativeMed');
    const choice = prescription.alternativeMeds[0] as string;
    const ok = await write(url, {
      noSubstitute: false,
      selectedAlternativeMed: choice,
      notes: 'ok',
      senderName: 'Dr. Alex Morgan',
    });
    expect(ok.statusCode).toBe(200);
    expect(await row(prescription.id)).toMatchObject({
      substitutionStatus: 'SUBSTITUTION_MD_SELECTED',
      selectedAlternativeMed: choice,
    });
    expect((await write(url, { noSubstitute: true, senderName: 'x' })).statusCode).toBe(409);
  });
});

describe('prior authorisation', () => {
  it('MD signature received moves the status on; a wrong status is 409', async () => {
    const { prescription } = await pick('priorAuth', (rx) => rx.priorAuthStatus === 'PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY');
    const url = '/api/mdo/v1/prescriptions/all/prior-auth/md-signature-received';
    expect((await write(url, { prescriptionIds: [prescription.id] })).statusCode).toBe(200);
    expect((await row(prescription.id))?.priorAuthStatus).toBe('PRIOR_AUTH_MD_SIGNATURE_RECEIVED_PHARMACY');
    expect((await write(url, { prescriptionIds: [prescription.id] })).statusCode).toBe(409);
  });

  it('chart notes sent stores the note and the ICD-10 flag and faxes them', async () => {
    const { prescription } = await pick(
      'priorAuth',
      (rx) => rx.priorAuthStatus === 'PRIOR_AUTH_CHART_NOTES_NEEDED' || rx.priorAuthStatus === 'PRIOR_AUTH_ICD10_NEEDED',
    );
    const url = rxUrl(prescription.id, 'prior-auth/chart-notes-sent');
    expect((await write(url, { chartNote: '', isICD10TriedAndFailed: true })).statusCode).toBe(400);
    const ok = await write(url, { chartNote: 'Tried metformin 6 months', isICD10TriedAndFailed: true });
    expect(ok.statusCode).toBe(200);
    const [event] = (await eventsOf(prescription.id)).filter((e) => e.type === 'PRIOR_AUTH_CHART_NOTES_SENT');
    expect(event?.data).toMatchObject({ chartNote: 'Tried metformin 6 months', isICD10TriedAndFailed: true });
    expect((await outboxOf(prescription.id)).map((o) => o.channel)).toContain('fax');
  });

  it('bulk dismiss is all-or-nothing and saves the notice preference', async () => {
    const entries = await entriesOf();
    const pa = entries.filter((e) => e.actionTypes.includes('priorAuth')).map((e) => e.prescription.id);
    const notPa = entries.find((e) => !e.actionTypes.includes('priorAuth'))?.prescription.id as string;
    const ids = [pa[0] as string, notPa];
    const url = '/api/mdo/v1/prescriptions/all/prior-auth/dismiss';
    const refused = await write(url, { prescriptionIds: ids, skipPriorAuthDismissNotice: true });
    expect(refused.statusCode).toBe(409);
    expect((await row(pa[0] as string))?.priorAuthStatus).not.toBe('PRIOR_AUTH_DISMISSED');
    const [unchanged] = await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID));
    expect(unchanged?.skipPriorAuthDismissNotice).toBe(false);

    const ok = await write(url, { prescriptionIds: [pa[0] as string], skipPriorAuthDismissNotice: true });
    expect(ok.statusCode).toBe(200);
    expect((await row(pa[0] as string))?.priorAuthStatus).toBe('PRIOR_AUTH_DISMISSED');
    const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID));
    expect(user?.skipPriorAuthDismissNotice).toBe(true);
    expect((await write(url, { prescriptionIds: [] })).statusCode).toBe(400);
    expect((await write(url, { prescriptionIds: [pa[1], pa[1]] })).statusCode).toBe(400);
  });
});

describe('phone exceptions', () => {
  it('puts the corrected number first and clears every exception of the patient', async () => {
    const { patient } = await pick('phoneException');
    const url = '/api/mdo/v1/patient-numbers/resolve-exceptions';
    const bad = await write(url, { patientPhoneNumberUpdates: [{ patientId: patient.id, phoneNumber: '555-1234' }] });
    expect(bad.statusCode).toBe(400);
    const ok = await write(url, { patientPhoneNumberUpdates: [{ patientId: patient.id, phoneNumber: '(614) 555-0199' }] });
    expect(ok.statusCode).toBe(200);
    const [p] = await t.database.db.select().from(s.patients).where(eq(s.patients.id, patient.id));
    expect(p?.phoneNumbers[0]).toBe('(614) 555-0199');
    const open = await t.database.db
      .select()
      .from(s.prescriptions)
      .where(and(eq(s.prescriptions.patientId, patient.id), eq(s.prescriptions.phoneException, true)));
    expect(open).toHaveLength(0);
    expect(
      (await write(url, { patientPhoneNumberUpdates: [{ patientId: patient.id, phoneNumber: '(614) 555-0199' }] })).statusCode,
    ).toBe(409);
  });
});

describe('scope', () => {
  it('a prescription or patient of another office is 404 and nothing changes', async () => {
    const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID));
    const members = await t.database.db
      .select({ id: s.officeMembers.mdOfficeId })
      .from(s.officeMembers)
      .where(eq(s.officeMembers.mdStaffId, user?.mdStaffId as string));
    const mine = [user?.mdOfficeId as string, ...members.map((m) => m.id)];
    const [foreign] = await t.database.db
      .select()
      .from(s.prescriptions)
      .where(and(notInArray(s.prescriptions.mdOfficeId, mine), eq(s.prescriptions.needsRefillAuth, true)))
      .limit(1);
    const id = foreign?.id as string;
    const res = await write(rxUrl(id, 'refills-authorized/fax'), { refills: 1, sig: 'x', senderName: 'x' });
    expect(res.statusCode).toBe(404);
    expect((await row(id))?.needsRefillAuth).toBe(true);
    const print = await injectAs(t.app, morgan, { method: 'GET', url: rxUrl(id, 'alternative-meds-request-print') });
    expect(print.statusCode).toBe(404);
    const events = await injectAs(t.app, morgan, { method: 'GET', url: rxUrl(id, 'events') });
    expect(events.statusCode).toBe(404);
    const dismiss = await write('/api/mdo/v1/prescriptions/all/prior-auth/dismiss', { prescriptionIds: [id] });
    expect(dismiss.statusCode).toBe(404);
    const patient = await write('/api/mdo/v1/patient-numbers/resolve-exceptions', {
      patientPhoneNumberUpdates: [{ patientId: foreign?.patientId, phoneNumber: '(614) 555-0100' }],
    });
    expect(patient.statusCode).toBe(404);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: rxUrl(crypto.randomUUID(), 'refills-denied'), payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('print and timeline', () => {
  it('the alternative-medication request is HTML with every value escaped', async () => {
    const { prescription, patient } = await pick('altMed');
    await t.database.db.update(s.patients).set({ firstName: '<script>alert(1)</script>' }).where(eq(s.patients.id, patient.id));
    const res = await injectAs(t.app, morgan, { method: 'GET', url: rxUrl(prescription.id, 'alternative-meds-request-print') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).toContain(prescription.drugName);
    for (const alt of prescription.alternativeMeds) expect(res.body).toContain(alt);
    expect(res.body).toContain('Prescriber signature');
  });

  it('the timeline lists events oldest first with who did what', async () => {
    const { prescription } = await pick('refillAuth');
    await write(rxUrl(prescription.id, 'refills-denied'), { reason: 'NO_LONGER_TAKING_MEDS', senderName: 'Dr. Alex Morgan' });
    const res = await injectAs(t.app, morgan, { method: 'GET', url: rxUrl(prescription.id, 'events') });
    expect(res.statusCode).toBe(200);
    const events = res.json();
    expect(events[0].type).toBe('RECEIVED');
    expect(events.at(-1)).toMatchObject({
      type: 'REFILL_DENIED',
      actorName: 'Dr. Alex Morgan',
      summary: 'Refill denied: patient no longer takes this medication',
    });
  });
});

describe('print page and CSP', () => {
  it('the print page’s only style is allowed by hash in the app’s CSP (no unsafe-inline)', async () => {
    const { prescription } = await pick('altMed');
    const res = await injectAs(t.app, morgan, { method: 'GET', url: rxUrl(prescription.id, 'alternative-meds-request-print') });
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] as string;
    expect(style).toBe(PRINT_STYLE);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(styleHash(PRINT_STYLE));
    expect(csp).not.toContain('unsafe-inline');
  });
});

describe('idempotency keys', () => {
  it('are purged after a day, recent ones kept', async () => {
    const db = t.database.db;
    const old = { userId: morgan.userID, method: 'POST', path: '/x', statusCode: 200, body: {} };
    await db.insert(s.idempotencyKeys).values([
      { ...old, requestId: 'purge-old-key-0000000000', createdAt: new Date(Date.now() - 25 * 3_600_000) },
      { ...old, requestId: 'purge-new-key-0000000000' },
    ]);
    const purged = await purgeIdempotencyKeys(db, new Date());
    expect(purged.idempotencyKeys).toBeGreaterThanOrEqual(1);
    const left = (await db.select({ id: s.idempotencyKeys.requestId }).from(s.idempotencyKeys)).map((r) => r.id);
    expect(left).toContain('purge-new-key-0000000000');
    expect(left).not.toContain('purge-old-key-0000000000');
  });

  it('record the answer in the write’s own transaction; a claim left by a killed process is taken over and acts once', async () => {
    const db = t.database.db;
    const [rx] = await db
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .innerJoin(s.users, eq(s.users.mdOfficeId, s.prescriptions.mdOfficeId))
      .where(and(eq(s.users.id, morgan.userID), inArray(s.prescriptions.priorAuthStatus, ['PRIOR_AUTH_REQUIRED'])))
      .limit(1);
    const url = '/api/mdo/v1/prescriptions/all/prior-auth/dismiss';
    // A claim its holder never answered (the process died before committing), older than the abandon time.
    const requestId = generateRequestId();
    await db.insert(s.idempotencyKeys).values({
      userId: morgan.userID,
      requestId,
      method: 'POST',
      path: url,
      statusCode: 0,
      body: null,
      claimToken: '00000000-0000-4000-8000-000000000000',
      createdAt: new Date(Date.now() - 120_000),
    });
    const send = () =>
      injectAs(t.app, morgan, {
        method: 'POST',
        url,
        payload: { prescriptionIds: [rx?.id] },
        headers: { 'x-request-id': requestId },
      });
    const first = await send();
    expect(first.statusCode).toBe(200);
    const [key] = await db.select().from(s.idempotencyKeys).where(eq(s.idempotencyKeys.requestId, requestId));
    expect(key?.claimToken).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(key?.statusCode).toBe(200);
    expect(key?.body).toEqual(first.json());
    // The retry is answered from the record, and the prescription was dismissed once.
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const events = await db.select().from(s.prescriptionEvents).where(eq(s.prescriptionEvents.requestId, requestId));
    expect(events).toHaveLength(1);
  });
});
