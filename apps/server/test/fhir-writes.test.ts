/**
 * The FHIR write side (issue 19): a pharmacy puts in patients, prescriptions and Tasks; a Task raises its item on
 * the practice's Action Needed at the next read and a cancelled one takes it off; resends act once; versions
 * guard updates; references outside the tenant or practice answer 422 naming the element; reads and writes are
 * audited with the client.
 */
import {
  actionQueueResponseSchema,
  NPI_SYSTEM,
  runOutInDays,
  TASK_CLOSING_STATUSES,
  TASK_INBOUND_STATUSES,
  TASK_OPEN_STATUSES,
  type TaskStatus,
  taskTransitionProblem,
} from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import {
  COMM_SYSTEM,
  communication,
  countFhirRows as countRows,
  fhirAs,
  input,
  medicationRequest,
  PT_SYSTEM,
  patient,
  RX_SYSTEM,
  systemToken,
  TASK_SYSTEM,
  task,
} from './support/fhir.ts';

const PUBLIC_URL = 'https://portal.test';
let t: TestApp;
let token: string;
let clientId: string;
let readOnly: string;
let otherTenantToken: string;
let practiceId: string;
let otherPracticeId: string;
let npi: string;
let morganUserId: string;

const fhir = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}, as = token) =>
  fhirAs(t, as, method, url, body, headers);

const stamp = Date.now().toString(36);
/** Creates a patient and a prescription of Dr. Morgan's practice; returns their ids. */
async function patientWithPrescription(key: string) {
  const pt = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-${key}`));
  expect(pt.statusCode, pt.body).toBe(201);
  const rx = await fhir('POST', '/MedicationRequest', medicationRequest(npi, `${stamp}-${key}`, pt.json().id));
  expect(rx.statusCode, rx.body).toBe(201);
  return { patientId: pt.json().id as string, prescriptionId: rx.json().id as string };
}

async function morganQueue() {
  const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  const res = await injectAs(t.app, morgan, {
    method: 'GET',
    url: `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_ALL`,
  });
  expect(res.statusCode).toBe(200);
  type Rx = { id: string; needsRefillAuth: boolean; priorAuthStatus: string | null; alternativeMeds: string[] };
  const rxs = (res.json().doctors as { patients: { prescriptions: Rx[] }[] }[]).flatMap((d) =>
    d.patients.flatMap((p) => p.prescriptions),
  );
  return { morgan, rxs };
}

/** A prescriber's decision on a prescription through the portal (answered 200). */
async function decide(prescriptionId: string, path: string, payload: Record<string, unknown>) {
  const { morgan } = await morganQueue();
  const res = await injectAs(t.app, morgan, {
    method: 'POST',
    url: `/api/mdo/v1/prescriptions/${prescriptionId}/${path}`,
    headers: { 'x-request-id': crypto.randomUUID() },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}
const denyRefill = (prescriptionId: string) =>
  decide(prescriptionId, 'refills-denied', { reason: 'NEED_OFFICE_VISIT', senderName: 'Dr Morgan' });

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  const db = t.database.db;
  const tenant = async (key: string) => (await db.select().from(s.tenants).where(eq(s.tenants.key, key)))[0]?.id as string;
  const main = await tenant('main');
  const [morgan] = await db
    .select({ userId: s.users.id, officeId: s.officeMembers.mdOfficeId, npi: s.mdStaff.npi })
    .from(s.users)
    .innerJoin(s.mdStaff, eq(s.mdStaff.id, s.users.mdStaffId))
    .innerJoin(s.officeMembers, eq(s.officeMembers.mdStaffId, s.mdStaff.id))
    .where(eq(s.users.email, 'dr.morgan@demo.hcp'))
    .limit(1);
  practiceId = morgan?.officeId as string;
  npi = morgan?.npi as string;
  morganUserId = morgan?.userId as string;
  const [other] = await db
    .select({ id: s.mdOffices.id })
    .from(s.mdOffices)
    .where(and(eq(s.mdOffices.tenantId, main), sql`${s.mdOffices.id} <> ${practiceId}`))
    .limit(1);
  otherPracticeId = other?.id as string;
  ({ token, clientId } = await systemToken(t, {
    tenantId: main,
    scopes: [
      'system/Patient.write',
      'system/MedicationRequest.write',
      'system/Task.write',
      'system/Communication.write',
      'system/*.read',
    ],
    publicUrl: PUBLIC_URL,
  }));
  ({ token: readOnly } = await systemToken(t, { tenantId: main, scopes: ['system/*.read'], publicUrl: PUBLIC_URL }));
  ({ token: otherTenantToken } = await systemToken(t, {
    tenantId: await tenant('harrow'),
    scopes: ['system/*.*'],
    publicUrl: PUBLIC_URL,
  }));
});
afterAll(() => t.close());

describe('FHIR Patient', () => {
  it('creates, reads back the same, answers a resend once, and updates by identifier with versions', async () => {
    const before = await countRows(t);
    const body = patient(practiceId, `${stamp}-p1`);
    const created = await fhir('POST', '/Patient', body);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.headers.location).toBe(`${PUBLIC_URL}/fhir/R4/Patient/${id}/_history/${created.json().meta.versionId}`);
    expect(created.headers.etag).toBe(`W/"${created.json().meta.versionId}"`);
    expect(created.json()).toMatchObject({
      identifier: body.identifier,
      name: [{ family: 'Rivera', given: ['Ana'] }],
      birthDate: '1961-04-12',
      telecom: [{ system: 'phone', value: '6145550142' }],
      address: [{ line: ['12 Elm St'], city: 'Columbus', state: 'OH', postalCode: '43215' }],
      managingOrganization: { reference: `Organization/${practiceId}` },
    });
    const [row] = await t.database.db.select().from(s.patients).where(eq(s.patients.id, id));
    expect(row).toMatchObject({ mdOfficeId: practiceId, firstName: 'Ana', lastName: 'Rivera', dob: '1961-04-12' });

    const resent = await fhir('POST', '/Patient', body);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().id).toBe(id);
    expect(await countRows(t)).toEqual({ ...before, patients: before.patients + 1, identifiers: before.identifiers + 1 });

    const url = `/Patient?identifier=${encodeURIComponent(`${PT_SYSTEM}|${stamp}-p1`)}`;
    const unchanged = await fhir('PUT', url, body);
    expect(unchanged.json().meta.versionId).toBe(created.json().meta.versionId);
    const moved = await fhir(
      'PUT',
      url,
      { ...body, telecom: [{ system: 'phone', value: '614-555-0199' }] },
      {
        'if-match': created.headers.etag as string,
      },
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().telecom).toEqual([{ system: 'phone', value: '6145550199', rank: 1 }]);
    expect(moved.json().meta.versionId).not.toBe(created.json().meta.versionId);
    const stale = await fhir('PUT', `/Patient/${id}`, { ...body, id }, { 'if-match': created.headers.etag as string });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().issue[0].code).toBe('conflict');

    const found = (await fhir('GET', url)).json();
    expect(found).toMatchObject({ resourceType: 'Bundle', total: 1, entry: [{ resource: { id } }] });
    const since = encodeURIComponent(`ge${moved.json().meta.lastUpdated}`);
    const recent = (await fhir('GET', `/Patient?_lastUpdated=${since}&_count=100`)).json();
    expect(recent.entry.map((e: { resource: { id: string } }) => e.resource.id)).toContain(id);
    const later = (
      await fhir('GET', `/Patient?_lastUpdated=gt${new Date(Date.now() + 60_000).toISOString().slice(0, 10)}`)
    ).json();
    expect(later.total).toBe(0);
    const audits = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.entityId, id), sql`${s.auditLog.action} like 'fhir.Patient.%'`));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'fhir.Patient.create',
        'fhir.Patient.create-existing',
        'fhir.Patient.update-unchanged',
        'fhir.Patient.update',
      ]),
    );
    expect(audits.every((a) => (a.details as { clientId: string }).clientId === clientId)).toBe(true);
  });

  it('answers 422 naming the element for an unknown practice or a missing birth date, and writes nothing', async () => {
    const before = await countRows(t);
    const unknown = await fhir(
      'POST',
      '/Patient',
      patient(practiceId, `${stamp}-p2`, { managingOrganization: { reference: `Organization/${crypto.randomUUID()}` } }),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().issue[0]).toMatchObject({ code: 'processing', expression: ['Patient.managingOrganization'] });
    const noDob = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-p3`, { birthDate: undefined }));
    expect(noDob.statusCode).toBe(422);
    expect(noDob.json().issue[0].expression).toEqual(['Patient.birthDate']);
    const badType = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-p4`, { birthDate: 19610412 }));
    expect(badType.statusCode).toBe(400);
    expect(badType.json().issue[0].expression).toContain('Patient.birthDate');
    expect(await countRows(t)).toEqual(before);
  });

  it('keeps each tenant to its own: another tenant cannot read the patient nor put one in this practice', async () => {
    const created = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-p5`));
    expect((await fhir('GET', `/Patient/${created.json().id}`, undefined, {}, otherTenantToken)).statusCode).toBe(404);
    const foreign = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-p6`), {}, otherTenantToken);
    expect(foreign.statusCode).toBe(422);
    expect((await fhir('POST', '/Patient', patient(practiceId, `${stamp}-p7`), {}, readOnly)).statusCode).toBe(403);
  });
});

describe('FHIR MedicationRequest', () => {
  it('creates a prescription of the practice with the order number, reads it both ways, and updates by identifier', async () => {
    const pt = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-m1`));
    const body = medicationRequest(npi, `${stamp}-m1`, pt.json().id);
    const created = await fhir('POST', '/MedicationRequest', body);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json()).toMatchObject({
      identifier: body.identifier,
      status: 'active',
      intent: 'order',
      subject: { reference: `Patient/${pt.json().id}` },
      medicationCodeableConcept: body.medicationCodeableConcept,
      authoredOn: '2026-10-01T09:30:00.000Z',
      dosageInstruction: [{ text: 'Take 1 tablet daily' }],
      dispenseRequest: { numberOfRepeatsAllowed: 2, quantity: { value: 30 }, expectedSupplyDuration: { value: 30 } },
      substitution: { allowedBoolean: true },
      meta: { versionId: '0' },
    });
    const [rx] = await t.database.db.select().from(s.prescriptions).where(eq(s.prescriptions.id, id));
    expect(rx).toMatchObject({ orderNumber: `${stamp}-m1`, mdOfficeId: practiceId, refills: 2, daysSupply: 30, quantity: 30 });
    const events = await t.database.db.select().from(s.prescriptionEvents).where(eq(s.prescriptionEvents.prescriptionId, id));
    expect(events.map((e) => e.type)).toEqual(['RECEIVED']);

    const url = `/MedicationRequest?identifier=${encodeURIComponent(`${RX_SYSTEM}|${stamp}-m1`)}`;
    const updated = await fhir(
      'PUT',
      url,
      { ...body, dispenseRequest: { ...body.dispenseRequest, numberOfRepeatsAllowed: 5 } },
      { 'if-match': 'W/"0"' },
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ meta: { versionId: '1' }, dispenseRequest: { numberOfRepeatsAllowed: 5 } });
    expect((await fhir('PUT', url, body, { 'if-match': 'W/"0"' })).statusCode).toBe(412);
  });

  it('answers 422 naming the requester for an unknown NPI or a prescriber of another practice', async () => {
    const pt = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-m2`));
    const before = await countRows(t);
    const unknownNpi = await fhir(
      'POST',
      '/MedicationRequest',
      medicationRequest(npi, `${stamp}-m2`, pt.json().id, {
        requester: { identifier: { system: NPI_SYSTEM, value: '0000000000' } },
      }),
    );
    expect(unknownNpi.statusCode).toBe(422);
    expect(unknownNpi.json().issue[0]).toMatchObject({ expression: ['MedicationRequest.requester'] });
    expect(unknownNpi.json().issue[0].diagnostics).toContain('0000000000');
    const [stranger] = await t.database.db
      .select({ id: s.mdStaff.id })
      .from(s.mdStaff)
      .innerJoin(s.officeMembers, eq(s.officeMembers.mdStaffId, s.mdStaff.id))
      .where(and(eq(s.officeMembers.mdOfficeId, otherPracticeId), sql`${s.mdStaff.role} <> 'STAFF'`))
      .limit(1);
    const otherPractice = await fhir(
      'POST',
      '/MedicationRequest',
      medicationRequest(npi, `${stamp}-m3`, pt.json().id, {
        requester: { reference: `Practitioner/${stranger?.id}` },
      }),
    );
    expect(otherPractice.statusCode).toBe(422);
    const noPatient = await fhir('POST', '/MedicationRequest', medicationRequest(npi, `${stamp}-m4`, crypto.randomUUID()));
    expect(noPatient.json().issue[0].expression).toEqual(['MedicationRequest.subject']);
    expect(await countRows(t)).toEqual(before);
  });
});

describe('FHIR Task', () => {
  it("raises a refill request on the practice's Action Needed; a cancel takes it off; a resend after the decision raises nothing", async () => {
    const { prescriptionId } = await patientWithPrescription('t1');
    expect((await morganQueue()).rxs.some((rx) => rx.id === prescriptionId)).toBe(false);

    const body = task(`${stamp}-t1`, 'refill-request', prescriptionId);
    const created = await fhir('POST', '/Task', body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      status: 'requested',
      code: body.code,
      focus: body.focus,
      owner: { reference: expect.stringMatching(/^Practitioner\//) },
      businessStatus: { text: 'Awaiting prescriber' },
      meta: { versionId: '1' },
    });
    const { morgan, rxs } = await morganQueue();
    expect(rxs.find((rx) => rx.id === prescriptionId)).toMatchObject({ needsRefillAuth: true });

    const url = `/Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${stamp}-t1`)}`;
    const cancelled = await fhir('PUT', url, { ...body, status: 'cancelled' });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', meta: { versionId: '2' } });
    expect((await morganQueue()).rxs.some((rx) => rx.id === prescriptionId)).toBe(false);
    const timeline = await t.database.db
      .select()
      .from(s.prescriptionEvents)
      .where(eq(s.prescriptionEvents.prescriptionId, prescriptionId));
    expect(timeline.map((e) => e.type)).toEqual(['RECEIVED', 'PHARMACY_REQUESTED', 'PHARMACY_WITHDREW']);

    // A withdrawn Task is final (issue 46): sent again as requested it is refused, naming why; asking again is a
    // new Task. The prescriber authorises that one; the pharmacy's resend of it then changes nothing.
    const reopened = await fhir('PUT', url, body);
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().issue[0]).toMatchObject({ code: 'business-rule', expression: ['Task.status'] });
    expect(reopened.json().issue[0].diagnostics).toContain('This Task is cancelled, which is final');
    const again = task(`${stamp}-t1b`, 'refill-request', prescriptionId);
    const againUrl = `/Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${stamp}-t1b`)}`;
    const asked = await fhir('PUT', againUrl, again);
    expect(asked.statusCode).toBe(201);
    expect((await morganQueue()).rxs.find((rx) => rx.id === prescriptionId)).toMatchObject({ needsRefillAuth: true });
    const authorised = await injectAs(t.app, morgan, {
      method: 'POST',
      url: `/api/mdo/v1/prescriptions/${prescriptionId}/refills-authorized/erx`,
      headers: { 'x-request-id': crypto.randomUUID() },
      payload: { skipErxConfirmation: true },
    });
    expect(authorised.statusCode, authorised.body).toBe(200);
    expect((await fhir('GET', `/Task/${asked.json().id}`)).json().status).toBe('completed');
    expect((await fhir('GET', `/Task/${created.json().id}`)).json().status).toBe('cancelled');
    const resent = await fhir('PUT', againUrl, again);
    expect(resent.json()).toMatchObject({ status: 'completed' });
    expect((await morganQueue()).rxs.some((rx) => rx.id === prescriptionId)).toBe(false);
    // Answered is final too: cancelling it now is refused, and it still reads completed.
    const late = await fhir('PUT', againUrl, { ...again, status: 'cancelled' });
    expect(late.statusCode).toBe(409);
    expect(late.json().issue[0].diagnostics).toContain('This Task was answered (completed), which is final');
    const done = (
      await fhir('GET', `/Task?status=completed&identifier=${encodeURIComponent(`${TASK_SYSTEM}|${stamp}-t1b`)}`)
    ).json();
    expect(done.total).toBe(1);
    expect(morganUserId).toBe(morgan.userID);
  });

  it("a prescriber's answer is a new version of the Task: If-Match on the version read before answers 412", async () => {
    const open = async (key: string) => {
      const { prescriptionId } = await patientWithPrescription(key);
      const body = task(`${stamp}-${key}`, 'refill-request', prescriptionId);
      const created = await fhir('POST', '/Task', body);
      expect(created.statusCode).toBe(201);
      expect(created.headers.etag).toBe('W/"1"');
      return { prescriptionId, body, id: created.json().id as string };
    };

    // A postponement changes the Task too: a new version.
    const later = await open('ver-postponed');
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await decide(later.prescriptionId, 'refills-postponed', { refillPostponedToDate: until, senderName: 'Dr Morgan' });
    expect((await fhir('GET', `/Task/${later.id}`)).json().meta.versionId).toBe('2');

    const { prescriptionId, body, id } = await open('ver-denied');
    const read = await fhir('GET', `/Task/${id}`);
    await denyRefill(prescriptionId);
    const answered = await fhir('GET', `/Task/${id}`);
    expect(answered.json()).toMatchObject({ status: 'completed', meta: { versionId: '2' } });
    expect(answered.headers.etag).toBe('W/"2"');
    expect(new Date(String(answered.headers['last-modified'])).getTime()).toBeGreaterThanOrEqual(
      new Date(read.json().meta.lastUpdated).getTime() - 1000,
    );
    // The pharmacy's write made on what it read before the answer is refused, and changes nothing.
    const put = (ifMatch: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/fhir/R4/Task/${id}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json', 'if-match': ifMatch },
        payload: { ...body, id, status: 'completed', businessStatus: { text: 'Patient told' } },
      });
    const stale = await put('W/"1"');
    expect(stale.statusCode, stale.body).toBe(412);
    expect((await fhir('GET', `/Task/${id}`)).json().meta.versionId).toBe('2');
    // On the current version it goes through: one write, one new version.
    const current = await put('W/"2"');
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json().meta.versionId).toBe('3');
  });

  it('the pharmacy completes its Task once the prescriber answered: "Received by the pharmacy", once; not before, not on a new Task', async () => {
    const { prescriptionId } = await patientWithPrescription('ack');
    const body = task(`${stamp}-ack`, 'refill-request', prescriptionId);
    const url = `/Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${stamp}-ack`)}`;
    const early = await fhir('POST', '/Task', { ...body, status: 'completed' });
    expect(early.statusCode).toBe(422);
    expect(early.body).toContain('A new Task cannot be completed');
    expect((await fhir('PUT', url, body)).statusCode).toBe(201);
    const waiting = await fhir('PUT', url, { ...body, status: 'completed' });
    expect(waiting.statusCode).toBe(422);
    expect(waiting.body).toContain('The prescriber has not answered this Task yet');

    await denyRefill(prescriptionId);
    const { morgan } = await morganQueue();
    for (let i = 0; i < 2; i += 1) {
      const ack = await fhir('PUT', url, { ...body, status: 'completed', businessStatus: { text: 'Patient told' } });
      expect(ack.statusCode, ack.body).toBe(200);
      expect(ack.json().status).toBe('completed');
    }
    const timeline = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${prescriptionId}/events` });
    const summaries = (timeline.json() as { summary: string }[]).map((e) => e.summary);
    expect(summaries.filter((text) => text === 'Received by the pharmacy')).toHaveLength(1);
    const reopened = await fhir('PUT', url, body);
    expect(reopened.statusCode).toBe(409);
    expect(reopened.body).toContain('This Task was answered (completed), which is final');
  });

  it("carries PA status and the alternatives offered to the prescriber's screen", async () => {
    const pa = await patientWithPrescription('t2');
    const paTask = task(`${stamp}-t2`, 'prior-authorization', pa.prescriptionId, {
      input: [input('pa-status', { valueCode: 'PRIOR_AUTH_CHART_NOTES_NEEDED' }), input('pa-method', { valueCode: 'CMM_PA' })],
    });
    expect((await fhir('POST', '/Task', paTask)).statusCode).toBe(201);
    const alt = await patientWithPrescription('t3');
    const altTask = task(`${stamp}-t3`, 'substitution', alt.prescriptionId, {
      input: [
        input('substitution-reason', { valueCode: 'high-cost' }),
        input('alternative', { valueString: 'Rosuvastatin 10 mg' }),
        input('alternative', { valueString: 'Simvastatin 20 mg' }),
      ],
    });
    const created = await fhir('POST', '/Task', altTask);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().input).toHaveLength(3);
    const { rxs } = await morganQueue();
    expect(rxs.find((rx) => rx.id === pa.prescriptionId)).toMatchObject({ priorAuthStatus: 'PRIOR_AUTH_CHART_NOTES_NEEDED' });
    expect(rxs.find((rx) => rx.id === alt.prescriptionId)?.alternativeMeds).toEqual(['Rosuvastatin 10 mg', 'Simvastatin 20 mg']);

    const missing = await fhir('POST', '/Task', task(`${stamp}-t4`, 'prior-authorization', pa.prescriptionId));
    expect(missing.statusCode).toBe(422);
    expect(missing.json().issue[0].diagnostics).toContain('pa-status');
  });

  it('carries the decision facts (last fill, refills left, PA on file) to the queue, with when the request came in', async () => {
    const refill = await patientWithPrescription('facts');
    const lastFill = new Date(Date.now() - 25 * 86_400_000).toISOString().slice(0, 10);
    const before = Date.now();
    const created = await fhir(
      'POST',
      '/Task',
      task(`${stamp}-facts`, 'refill-request', refill.prescriptionId, {
        input: [
          input('last-fill-date', { valueDate: lastFill }),
          input('refills-remaining', { valueInteger: 0 }),
          input('pa-expires', { valueDate: '2027-03-31' }),
        ],
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    // Read back as sent: the integer stays an integer.
    expect(created.json().input).toContainEqual(input('refills-remaining', { valueInteger: 0 }));
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const res = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v2/users/${morgan.userID}/action-queue` });
    expect(res.statusCode, res.body).toBe(200);
    const item = actionQueueResponseSchema.parse(res.json()).items.find((i) => i.id === refill.prescriptionId);
    expect(item).toMatchObject({
      lastFilledOn: lastFill,
      refillsRemaining: 0,
      priorAuthExpiresOn: '2027-03-31',
      needsRefillAuth: true,
    });
    // The medication request said 30 days of supply.
    expect(item?.runOutInDays).toBe(runOutInDays(lastFill, 30, res.json().today));
    expect(Date.parse((item?.waitingSince ?? '').replace(' ', 'T'))).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);

    for (const [code, value, message] of [
      ['last-fill-date', { valueDate: '2999-01-01' }, 'last-fill-date'],
      ['refills-remaining', { valueInteger: -1 }, 'refills-remaining'],
      ['pa-expires', { valueDate: '2027-02-30' }, 'pa-expires'],
    ] as const) {
      const bad = await fhir(
        'POST',
        '/Task',
        task(`${stamp}-bad-${code}`, 'refill-request', refill.prescriptionId, { input: [input(code, value)] }),
      );
      expect(bad.statusCode, code).toBe(422);
      expect(bad.json().issue[0].diagnostics).toContain(message);
    }
  });

  it('opens an appeal: its link and key reach the pharmacy once and sign the prescriber in; a withdrawal ends the link', async () => {
    const { prescriptionId } = await patientWithPrescription('a1');
    const body = task(`${stamp}-a1`, 'appeal', prescriptionId, {
      input: [
        input('payer', { valueString: 'Acme Health Plan' }),
        input('denial-reason', { valueString: 'Step therapy required' }),
        input('denial-date', { valueDate: '2026-11-20' }),
      ],
    });
    const created = await fhir('POST', '/Task', body);
    expect(created.statusCode, created.body).toBe(201);
    type Output = { type: { coding: { code: string }[] }; valueUrl?: string; valueString?: string; valueCode?: string };
    const outputOf = (task: { output?: Output[] }, code: string) => task.output?.find((o) => o.type.coding[0]?.code === code);
    const link = outputOf(created.json(), 'appeal-link')?.valueUrl as string;
    const key = outputOf(created.json(), 'appeal-key')?.valueString as string;
    expect(link).toBe(`${PUBLIC_URL}/appeals-form?npi=${npi}&key=${key}`);
    expect(key).toMatch(/^[0-9A-F]{16}$/);
    const signIn = () => t.app.inject({ method: 'POST', url: '/api/mdo/v1/appeal-auth', payload: { npi, key } });
    const signedIn = await signIn();
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().appeal).toMatchObject({ payer: 'Acme Health Plan', denialReason: 'Step therapy required' });
    const rows = await t.database.db.select().from(s.appeals).where(eq(s.appeals.prescriptionId, prescriptionId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.accessKeyHash).not.toContain(key);

    // Read back and resent: the key is never shown again, and no second appeal opens.
    const read = (await fhir('GET', `/Task/${created.json().id}`)).json();
    expect(outputOf(read, 'appeal-key')).toBeUndefined();
    expect(outputOf(read, 'appeal-status')?.valueCode).toBe('waiting-for-prescriber');
    const resent = await fhir('POST', '/Task', body);
    expect(resent.statusCode).toBe(200);
    expect(outputOf(resent.json(), 'appeal-key')).toBeUndefined();
    expect(await t.database.db.select().from(s.appeals).where(eq(s.appeals.prescriptionId, prescriptionId))).toHaveLength(1);

    const url = `/Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${stamp}-a1`)}`;
    expect((await fhir('PUT', url, { ...body, status: 'cancelled' })).statusCode).toBe(200);
    expect((await signIn()).statusCode).not.toBe(200);
    // A withdrawn appeal does not reopen: its Task is final (409), and its link stays expired.
    const reopened = await fhir('PUT', url, body);
    expect(reopened.statusCode).toBe(409);
    expect((await signIn()).statusCode).not.toBe(200);
    const noPayer = await fhir('POST', '/Task', task(`${stamp}-a2`, 'appeal', prescriptionId));
    expect(noPayer.json().issue[0].diagnostics).toContain('payer');
  });

  it("honours the practice's refill and PA choices: a request it said not to send is refused, naming why, writing nothing", async () => {
    const { prescriptionId } = await patientWithPrescription('t8');
    const prefsOf = async () =>
      (
        await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.id, practiceId))
      )[0] as typeof s.mdOffices.$inferSelect;
    const saved = await prefsOf();
    await t.database.db
      .update(s.mdOffices)
      .set({ refillRequestOption: 'DoNotAskForRefillsOfficeWillContact', paHandling: 'DoNotDoPA' })
      .where(eq(s.mdOffices.id, practiceId));
    try {
      const before = await countRows(t);
      const refill = await fhir('POST', '/Task', task(`${stamp}-t8`, 'refill-request', prescriptionId));
      expect(refill.statusCode).toBe(422);
      expect(refill.json().issue[0]).toMatchObject({
        code: 'business-rule',
        expression: ['Task.code'],
        diagnostics: expect.stringContaining(
          'The practice asks not to be sent refill requests: the office will contact the patient.',
        ),
      });
      const pa = await fhir(
        'POST',
        '/Task',
        task(`${stamp}-t9`, 'prior-authorization', prescriptionId, {
          input: [input('pa-status', { valueCode: 'PRIOR_AUTH_REQUIRED' })],
        }),
      );
      expect(pa.statusCode).toBe(422);
      expect(pa.json().issue[0].diagnostics).toContain('The practice does not do prior authorizations.');
      expect(await countRows(t)).toEqual(before);
      // What the practice still takes goes through.
      expect((await fhir('POST', '/Task', task(`${stamp}-t10`, 'phone-exception', prescriptionId))).statusCode).toBe(201);
      // A Task created already withdrawn raises nothing, and cannot be reopened later (final, issue 46): a new
      // request the practice refuses is refused as above.
      await t.database.db
        .update(s.mdOffices)
        .set({ refillRequestOption: saved.refillRequestOption })
        .where(eq(s.mdOffices.id, practiceId));
      const cancelled = await fhir('POST', '/Task', {
        ...task(`${stamp}-t11`, 'refill-request', prescriptionId),
        status: 'cancelled',
      });
      expect(cancelled.statusCode).toBe(201);
      await t.database.db
        .update(s.mdOffices)
        .set({ refillRequestOption: 'DoNotAskForRefills' })
        .where(eq(s.mdOffices.id, practiceId));
      const reopened = await fhir('PUT', `/Task/${cancelled.json().id}`, task(`${stamp}-t11`, 'refill-request', prescriptionId));
      expect(reopened.statusCode).toBe(409);
      const asked = await fhir('POST', '/Task', task(`${stamp}-t12`, 'refill-request', prescriptionId));
      expect(asked.statusCode).toBe(422);
      expect(asked.json().issue[0].diagnostics).toContain('The practice asks not to be sent refill requests.');
    } finally {
      await t.database.db
        .update(s.mdOffices)
        .set({ refillRequestOption: saved.refillRequestOption, paHandling: saved.paHandling })
        .where(eq(s.mdOffices.id, practiceId));
    }
  });

  it('refuses a focus outside the tenant, an unknown code, and a change of code, writing nothing', async () => {
    const { prescriptionId } = await patientWithPrescription('t5');
    const before = await countRows(t);
    const foreign = await fhir('POST', '/Task', task(`${stamp}-t5`, 'refill-request', prescriptionId), {}, otherTenantToken);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().issue[0].expression).toEqual(['Task.focus']);
    const unknown = await fhir('POST', '/Task', task(`${stamp}-t6`, 'coffee', prescriptionId));
    expect(unknown.json().issue[0].expression).toEqual(['Task.code']);
    expect(await countRows(t)).toEqual(before);
    const created = await fhir('POST', '/Task', task(`${stamp}-t7`, 'refill-request', prescriptionId));
    const changed = await fhir('PUT', `/Task/${created.json().id}`, task(`${stamp}-t7`, 'phone-exception', prescriptionId));
    expect(changed.statusCode).toBe(422);
    expect((await fhir('GET', `/Task/${created.json().id}`, undefined, {}, otherTenantToken)).statusCode).toBe(404);
  });
});

/**
 * The Task state machine (issue 46), derived from the contract's table: every status a Task can be in (each open
 * one while the prescriber has not answered, completed once they did, and the two withdrawals) against every status
 * a pharmacy may send. A change the table refuses answers 409 with the table's own words and changes nothing; one
 * it allows goes through, but for the one business rule on top (the pharmacy cannot complete a Task the prescriber
 * has not answered: 422).
 */
describe('FHIR Task state machine', () => {
  it('answers every transition as the contract table says', async () => {
    const froms: TaskStatus[] = [...TASK_OPEN_STATUSES, 'completed', ...TASK_CLOSING_STATUSES];
    const answers = new Map<string, number>();
    let cases = 0;
    for (const from of froms) {
      const { prescriptionId } = await patientWithPrescription(`sm-${from}`);
      const tasks = new Map<string, { url: string; body: ReturnType<typeof task>; id: string }>();
      for (const to of TASK_INBOUND_STATUSES) {
        const key = `${stamp}-sm-${from}-${to}`;
        const body = task(key, 'refill-request', prescriptionId, { status: from === 'completed' ? 'requested' : from });
        const created = await fhir('POST', '/Task', body);
        expect(created.statusCode, created.body).toBe(201);
        tasks.set(to, { url: `/Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${key}`)}`, body, id: created.json().id });
      }
      if (from === 'completed') await denyRefill(prescriptionId);
      for (const to of TASK_INBOUND_STATUSES) {
        const { url, body, id } = tasks.get(to) as { url: string; body: ReturnType<typeof task>; id: string };
        const before = (await fhir('GET', `/Task/${id}`)).json();
        expect(before.status).toBe(from);
        const res = await fhir('PUT', url, { ...body, status: to, businessStatus: { text: `Now ${to}` } });
        cases += 1;
        answers.set(String(res.statusCode), (answers.get(String(res.statusCode)) ?? 0) + 1);
        const refused = taskTransitionProblem(from, to);
        const label = `${from} -> ${to}: ${res.body.slice(0, 200)}`;
        if (refused) {
          expect(res.statusCode, label).toBe(409);
          expect(res.json().issue[0], label).toMatchObject({
            code: 'business-rule',
            diagnostics: refused,
            expression: ['Task.status'],
          });
          const after = (await fhir('GET', `/Task/${id}`)).json();
          expect([after.status, after.meta.versionId], label).toEqual([before.status, before.meta.versionId]);
        } else if (to === 'completed' && from !== 'completed') {
          expect(res.statusCode, label).toBe(422);
        } else {
          expect(res.statusCode, label).toBe(200);
          expect(res.json().status, label).toBe(to === 'completed' || from === 'completed' ? 'completed' : to);
        }
      }
    }
    expect(cases).toBe(froms.length * TASK_INBOUND_STATUSES.length);
    console.info(`FHIR Task state machine: ${cases} transitions, answers ${JSON.stringify(Object.fromEntries(answers))}`);
  });
});

describe('FHIR transaction Bundle', () => {
  const bundleOf = (key: string, taskCode = 'refill-request') => ({
    resourceType: 'Bundle',
    type: 'transaction',
    // Listed Task first: the server writes what is referenced first.
    entry: [
      {
        fullUrl: `urn:uuid:${key}-t`,
        resource: task(`${stamp}-${key}`, taskCode, 'placeholder', { focus: { reference: `urn:uuid:${key}-m` } }),
        request: { method: 'PUT', url: `Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${stamp}-${key}`)}` },
      },
      {
        fullUrl: `urn:uuid:${key}-m`,
        resource: medicationRequest(npi, `${stamp}-${key}`, 'placeholder', { subject: { reference: `urn:uuid:${key}-p` } }),
        request: { method: 'POST', url: 'MedicationRequest' },
      },
      {
        fullUrl: `urn:uuid:${key}-p`,
        resource: patient(practiceId, `${stamp}-${key}`),
        request: { method: 'POST', url: 'Patient' },
      },
    ],
  });

  it('writes a patient, the prescription and its Task together, resolving references, and a resend acts once', async () => {
    const before = await countRows(t);
    const res = await fhir('POST', '', bundleOf('b1'));
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ resourceType: 'Bundle', type: 'transaction-response' });
    expect(answer.entry.map((e: { response: { status: string } }) => e.response.status)).toEqual([
      '201 Created',
      '201 Created',
      '201 Created',
    ]);
    const [taskAnswer, rxAnswer, ptAnswer] = answer.entry.map((e: { resource: { id: string } }) => e.resource);
    expect(taskAnswer.focus).toEqual({ reference: `MedicationRequest/${rxAnswer.id}` });
    expect(rxAnswer.subject).toEqual({ reference: `Patient/${ptAnswer.id}` });
    expect((await morganQueue()).rxs.find((rx) => rx.id === rxAnswer.id)).toMatchObject({ needsRefillAuth: true });
    expect(await countRows(t)).toEqual({
      patients: before.patients + 1,
      prescriptions: before.prescriptions + 1,
      tasks: before.tasks + 1,
      identifiers: before.identifiers + 3,
      comments: before.comments,
      mentions: before.mentions,
    });

    const again = await fhir('POST', '', bundleOf('b1'));
    expect(again.json().entry.map((e: { response: { status: string } }) => e.response.status)).toEqual([
      '200 OK',
      '200 OK',
      '200 OK',
    ]);
    expect((await countRows(t)).tasks).toBe(before.tasks + 1);
  });

  it('changes nothing when one entry fails, and names that entry', async () => {
    const before = await countRows(t);
    const res = await fhir('POST', '', bundleOf('b2', 'coffee'));
    expect(res.statusCode).toBe(422);
    expect(res.json().issue[0]).toMatchObject({ expression: ['Bundle.entry[0].resource.code'] });
    expect(res.json().issue[0].diagnostics).toContain('Nothing in the transaction was written');
    const late = bundleOf('b3');
    late.entry[2] = {
      ...late.entry[2],
      resource: patient(practiceId, `${stamp}-b3`, { birthDate: undefined }),
    } as (typeof late.entry)[2];
    expect((await fhir('POST', '', late)).statusCode).toBe(422);
    expect(await countRows(t)).toEqual(before);
    expect((await fhir('POST', '', { ...bundleOf('b4'), type: 'batch' })).statusCode).toBe(422);
    expect((await fhir('POST', '', bundleOf('b5'), {}, readOnly)).statusCode).toBe(403);
    expect(await countRows(t)).toEqual(before);
  });
});

describe('FHIR Communication', () => {
  it("puts a patient's message unread on the practice's New Comments, once, and never changes it", async () => {
    const { patientId, prescriptionId } = await patientWithPrescription('c1');
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const unread = async () => {
      const res = await injectAs(t.app, morgan, {
        method: 'GET',
        url: `/api/mdo/v2/users/${morgan.userID}/doctor-list-search?newComments=true`,
      });
      return JSON.stringify(res.json()).includes(patientId);
    };
    expect(await unread()).toBe(false);
    const body = communication(`${stamp}-c1`, patientId, { about: [{ reference: `MedicationRequest/${prescriptionId}` }] });
    const created = await fhir('POST', '/Communication', body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      status: 'completed',
      subject: { reference: `Patient/${patientId}` },
      about: [{ reference: `MedicationRequest/${prescriptionId}` }],
      recipient: [{ reference: `Organization/${practiceId}` }],
      payload: body.payload,
    });
    expect(await unread()).toBe(true);
    const thread = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/patients/${patientId}/all-rx-comment` });
    expect(thread.body).toContain('I travel on Saturday');

    const before = await countRows(t);
    const url = `/Communication?identifier=${encodeURIComponent(`${COMM_SYSTEM}|${stamp}-c1`)}`;
    expect((await fhir('PUT', url, body)).statusCode).toBe(200);
    const changed = await fhir('PUT', url, { ...body, payload: [{ contentString: 'Something else' }] });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().issue[0].expression).toEqual(['Communication.payload']);
    const other = await patientWithPrescription('c2');
    const wrongAbout = await fhir(
      'POST',
      '/Communication',
      communication(`${stamp}-c2`, patientId, {
        about: [{ reference: `MedicationRequest/${other.prescriptionId}` }],
      }),
    );
    expect(wrongAbout.json().issue[0].expression).toEqual(['Communication.about']);
    expect((await countRows(t)).comments).toBe(before.comments);
    expect((await fhir('GET', `/Communication/${created.json().id}`, undefined, {}, otherTenantToken)).statusCode).toBe(404);
  });
});
