/**
 * Every decision a pharmacy can hear of, read back through FHIR (issue 46 part 3): for each kind the pharmacy sends
 * its own Task, the prescriber answers it in the portal, the signed webhook message arrives, and the pharmacy's
 * `GET /Task/:id` and its status search say the same as the message — status, businessStatus, outputs and dates — so
 * a pharmacy that polls sees what one that listens hears. A postponed refill reads on-hold until its day.
 */
import { APPEAL_TOKEN_HEADER, apiPaths, type Tokens, WEBHOOK_EVENTS, type WebhookEvent } from '@hcp/contract';
import type { Bundle, Task } from '@medplum/fhirtypes';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validated } from '../src/features/fhir/validate.ts';
import { postponeDate } from './support/action-needed.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { fhirAs, input, mainTenantPharmacy, medicationRequest, patient, systemToken, TASK_SYSTEM, task } from './support/fhir.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

const PUBLIC_URL = 'https://portal.test';
let t: TestApp;
let token: string;
let practiceId: string;
let npi: string;
let morgan: Tokens;
let receiver: Receiver;
const stamp = Date.now().toString(36);

const fhir = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => fhirAs(t, token, method, url, body);

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  const pharmacy = await mainTenantPharmacy(t, PUBLIC_URL);
  token = pharmacy.token;
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  const staff = await t.database.db.execute(sql`select st.npi, m.md_office_id as "practiceId" from md_staff st
    join users u on u.md_staff_id = st.id join office_members m on m.md_staff_id = st.id
    where u.email = 'dr.morgan@demo.hcp' limit 1`);
  ({ npi, practiceId } = (staff as unknown as { rows: { npi: string; practiceId: string }[] }).rows[0] as {
    npi: string;
    practiceId: string;
  });
  receiver = await startReceiver();
  const admin = await signIn(t.app, 'admin@demo.hcp');
  const created = await injectAs(t.app, admin, {
    method: 'POST',
    url: '/api/mdo/v1/webhook-endpoints',
    payload: { url: receiver.url, events: WEBHOOK_EVENTS.filter((e) => e !== 'prescription.created') },
  });
  expect(created.statusCode, created.body).toBe(201);
  receiver.secrets = [created.json().secret];
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** A patient and prescription of Dr. Morgan's practice, and the pharmacy's Task of this code on it. */
async function openTask(key: string, code: string, inputs: ReturnType<typeof input>[] = []) {
  const pt = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-${key}`));
  expect(pt.statusCode, pt.body).toBe(201);
  const rx = await fhir('POST', '/MedicationRequest', medicationRequest(npi, `${stamp}-${key}`, pt.json().id));
  expect(rx.statusCode, rx.body).toBe(201);
  const created = await fhir(
    'POST',
    '/Task',
    task(`${stamp}-${key}`, code, rx.json().id, inputs.length ? { input: inputs } : {}),
  );
  expect(created.statusCode, created.body).toBe(201);
  return { patientId: pt.json().id as string, prescriptionId: rx.json().id as string, task: created.json() as Task };
}

const act = async (url: string, payload: Record<string, unknown>) => {
  const res = await injectAs(t.app, morgan, { method: 'POST', url, headers: { 'x-request-id': crypto.randomUUID() }, payload });
  expect(res.statusCode, res.body).toBe(200);
};

/** Runs the webhook worker until the message about this Task arrived (each round dispatches what is due). */
async function messageAbout(taskId: string, event: WebhookEvent): Promise<Task> {
  const find = () =>
    receiver.received
      .map((r) => ({ verified: r.verified, bundle: JSON.parse(r.body) as Bundle }))
      .find(({ bundle }) => {
        const header = bundle.entry?.[0]?.resource as { eventCoding?: { code?: string } } | undefined;
        const focus = bundle.entry?.[1]?.resource as Task | undefined;
        return header?.eventCoding?.code === event && focus?.id === taskId;
      });
  for (let round = 0; round < 10 && !find(); round += 1) await t.app.webhookWorker.runOnce();
  const found = find();
  expect(found?.verified, `no signed ${event} message for Task/${taskId}`).toBe(true);
  return validated<Bundle>(found?.bundle, 'Bundle').entry?.[1]?.resource as Task;
}

/** What a pharmacy acts on: the decision's status, businessStatus, outputs and when. */
const decisionOf = (resource: Task) => ({
  status: resource.status,
  businessStatus: resource.businessStatus,
  output: resource.output ?? [],
  restriction: resource.restriction,
  executionPeriod: resource.executionPeriod,
});

const KINDS: {
  event: WebhookEvent;
  code: string;
  inputs?: ReturnType<typeof input>[];
  decide: (o: { prescriptionId: string; patientId: string; task: Task; until: string }) => Promise<void>;
  status: 'completed' | 'on-hold';
}[] = [
  {
    event: 'refill.authorized',
    code: 'refill-request',
    decide: ({ prescriptionId }) =>
      act(apiPaths.refillAuthorizedFax(prescriptionId), { refills: 2, sig: 'Take one daily', senderName: 'Dr Morgan' }),
    status: 'completed',
  },
  {
    event: 'refill.authorized',
    code: 'refill-request',
    decide: ({ prescriptionId }) => act(apiPaths.refillAuthorizedErx(prescriptionId), { skipErxConfirmation: true }),
    status: 'completed',
  },
  {
    event: 'refill.denied',
    code: 'refill-request',
    decide: ({ prescriptionId }) =>
      act(apiPaths.refillDenied(prescriptionId), { reason: 'NEED_OFFICE_VISIT', senderName: 'Dr Morgan' }),
    status: 'completed',
  },
  {
    event: 'refill.postponed',
    code: 'refill-request',
    decide: ({ prescriptionId, until }) =>
      act(apiPaths.refillPostponed(prescriptionId), { refillPostponedToDate: until, senderName: 'Dr Morgan' }),
    status: 'on-hold',
  },
  {
    event: 'alternative.chosen',
    code: 'substitution',
    inputs: [
      input('substitution-reason', { valueCode: 'high-cost' }),
      input('alternative', { valueString: 'Rosuvastatin 10 mg tablet' }),
    ],
    decide: ({ prescriptionId }) =>
      act(apiPaths.alternativeMed(prescriptionId), {
        noSubstitute: false,
        selectedAlternativeMed: 'Rosuvastatin 10 mg tablet',
        notes: 'Cheaper for the patient',
        senderName: 'Dr Morgan',
      }),
    status: 'completed',
  },
  {
    event: 'prior-authorization.dismissed',
    code: 'prior-authorization',
    inputs: [input('pa-status', { valueCode: 'PRIOR_AUTH_REQUIRED' })],
    decide: ({ prescriptionId }) =>
      act(apiPaths.priorAuthDismiss, { prescriptionIds: [prescriptionId], skipPriorAuthDismissNotice: false }),
    status: 'completed',
  },
  {
    event: 'prior-authorization.signature-received',
    code: 'prior-authorization',
    inputs: [input('pa-status', { valueCode: 'PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY' })],
    decide: ({ prescriptionId }) => act(apiPaths.mdSignatureReceived, { prescriptionIds: [prescriptionId] }),
    status: 'completed',
  },
  {
    event: 'prior-authorization.chart-notes-sent',
    code: 'prior-authorization',
    inputs: [input('pa-status', { valueCode: 'PRIOR_AUTH_CHART_NOTES_NEEDED' })],
    decide: ({ prescriptionId }) =>
      act(apiPaths.chartNotesSent(prescriptionId), { chartNote: 'Tried two statins.', isICD10TriedAndFailed: true }),
    status: 'completed',
  },
  {
    event: 'phone.corrected',
    code: 'phone-exception',
    decide: ({ patientId }) =>
      act(apiPaths.resolvePhoneExceptions, { patientPhoneNumberUpdates: [{ patientId, phoneNumber: '(614) 555-0199' }] }),
    status: 'completed',
  },
  {
    event: 'appeal.submitted',
    code: 'appeal',
    inputs: [input('payer', { valueString: 'Acme Health Plan' }), input('denial-reason', { valueString: 'Step therapy' })],
    decide: async ({ task: created }) => {
      const key = created.output?.find((o) => o.type.coding?.[0]?.code === 'appeal-key')?.valueString;
      const auth = await t.app.inject({ method: 'POST', url: '/api/mdo/v1/appeal-auth', payload: { npi, key } });
      expect(auth.statusCode, auth.body).toBe(200);
      const { token: appealToken, appeal } = auth.json();
      const headers = { [APPEAL_TOKEN_HEADER]: appealToken };
      const url = `/api/mdo/v1/appeal/${appeal.id}`;
      const saved = await t.app.inject({
        method: 'POST',
        url: `${url}/save`,
        headers,
        payload: { clinicalJustification: 'Two formulary alternatives failed.', attestation: true },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const submitted = await t.app.inject({ method: 'POST', url: `${url}/submit`, headers });
      expect(submitted.statusCode, submitted.body).toBe(200);
    },
    status: 'completed',
  },
];

describe('a decision read back through FHIR', () => {
  it('covers every decision the webhooks carry', () => {
    expect(new Set(KINDS.map((k) => k.event))).toEqual(new Set(WEBHOOK_EVENTS.filter((e) => e !== 'prescription.created')));
  });

  it.each(KINDS.map((kind, index) => [`${kind.event} #${index}`, kind] as const))(
    '%s: the Task reads as the webhook message says it',
    async (_name, kind) => {
      const key = `${kind.code}-${KINDS.indexOf(kind)}`;
      const opened = await openTask(key, kind.code, kind.inputs);
      const id = opened.task.id as string;
      const until = postponeDate();
      await kind.decide({ ...opened, until });
      const pushed = await messageAbout(id, kind.event);
      const read = await fhir('GET', `/Task/${id}`);
      expect(read.statusCode).toBe(200);
      const polled = validated<Task>(read.json(), 'Task');
      expect(pushed.status).toBe(kind.status);
      expect(pushed.businessStatus?.coding?.[0]?.code).toBe(kind.event);
      expect(decisionOf(polled)).toEqual(decisionOf(pushed));
      // The status search finds it in that state, and only there.
      const ident = encodeURIComponent(`${TASK_SYSTEM}|${stamp}-${key}`);
      expect((await fhir('GET', `/Task?identifier=${ident}&status=${kind.status}`)).json().total).toBe(1);
      expect((await fhir('GET', `/Task?identifier=${ident}&status=requested`)).json().total).toBe(0);
      if (kind.status === 'on-hold') {
        expect(polled.restriction?.period?.start).toBe(until);
        const dayOf = polled.output?.find((o) => o.type.coding?.[0]?.code === 'postponed-until')?.valueDate;
        expect(dayOf).toBe(until);
      } else {
        expect(polled.executionPeriod?.end).toBeTruthy();
        expect(polled.restriction).toBeUndefined();
      }
    },
  );

  it('a postponement reads on-hold until its day, then as the pharmacy sent it; the answer after it reads as the answer', async () => {
    const opened = await openTask('postponed-then-denied', 'refill-request');
    const id = opened.task.id as string;
    await act(apiPaths.refillPostponed(opened.prescriptionId), {
      refillPostponedToDate: postponeDate(),
      senderName: 'Dr Morgan',
    });
    expect((await fhir('GET', `/Task/${id}`)).json().status).toBe('on-hold');
    // The day comes (the FHIR side reads the real clock, so the postponement is moved to today instead).
    await t.database.db.execute(
      sql`update prescriptions set refill_postponed_until = current_date where id = ${opened.prescriptionId}`,
    );
    const due = (await fhir('GET', `/Task/${id}`)).json() as Task;
    expect(due).toMatchObject({ status: 'requested', businessStatus: { text: 'Awaiting prescriber' } });
    expect(due.output).toBeUndefined();
    expect(due.restriction).toBeUndefined();
    await act(apiPaths.refillDenied(opened.prescriptionId), { reason: 'NO_LONGER_TAKING_MEDS', senderName: 'Dr Morgan' });
    const read = (await fhir('GET', `/Task/${id}`)).json() as Task;
    expect(read.status).toBe('completed');
    expect(read.businessStatus?.coding?.[0]?.code).toBe('refill.denied');
    expect(read.output?.map((o) => o.type.coding?.[0]?.code)).toEqual(['denial-reason']);
    // Each message says what its own decision did.
    expect((await messageAbout(id, 'refill.postponed')).status).toBe('on-hold');
    expect(decisionOf(await messageAbout(id, 'refill.denied'))).toEqual(decisionOf(read));
  });

  it('every version the pharmacy made or was sent stays readable by its id (vread); others answer 404', async () => {
    const opened = await openTask('versions', 'refill-request');
    const id = opened.task.id as string;
    const vread = (vid: string, as = token) =>
      t.app.inject({ method: 'GET', url: `/fhir/R4/Task/${id}/_history/${vid}`, headers: { authorization: `Bearer ${as}` } });
    await act(apiPaths.refillDenied(opened.prescriptionId), { reason: 'NEED_OFFICE_VISIT', senderName: 'Dr Morgan' });
    const pushed = await messageAbout(id, 'refill.denied');
    expect(pushed.meta?.versionId).toBe('2');
    const answered = (await fhir('GET', `/Task/${id}`)).json() as Task;
    const url = `/Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${stamp}-versions`)}`;
    const ack = await fhir('PUT', url, {
      ...task(`${stamp}-versions`, 'refill-request', opened.prescriptionId),
      status: 'completed',
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().meta.versionId).toBe('3');

    const first = await vread('1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers.etag).toBe('W/"1"');
    expect(validated<Task>(first.json(), 'Task')).toEqual(opened.task);
    const second = await vread('2');
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(answered);
    expect((await vread('3')).json()).toEqual((await fhir('GET', `/Task/${id}`)).json());
    // The Location a create answers is such an address.
    const location = new URL(String((await fhir('POST', '/Patient', patient(practiceId, `${stamp}-loc`))).headers.location));
    expect(
      (await t.app.inject({ method: 'GET', url: location.pathname, headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(200);

    const missing = await vread('9');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] });
    expect((await vread('x1')).statusCode).toBe(400);
    const harrow = await t.database.db.execute(sql`select id from tenants where key = 'harrow'`);
    const other = await systemToken(t, {
      tenantId: (harrow as unknown as { rows: { id: string }[] }).rows[0]?.id as string,
      scopes: ['system/*.read'],
      publicUrl: PUBLIC_URL,
    });
    expect((await vread('1', other.token)).statusCode).toBe(404);
  });
});
