/**
 * Outbound webhooks (issue 20): admins register endpoints (secret shown once, rotation with a day of overlap);
 * every decision reaches a local receiver as a signed Standard Webhooks request whose body is a valid FHIR message
 * Bundle; a failing receiver gets retries with growing delays, then the delivery is dead-lettered and can be
 * redelivered with the same webhook-id; 410 turns the endpoint off; a prescription's decisions arrive in order;
 * a lease left by a vanished worker is taken over; another tenant's decisions never reach this tenant's endpoint.
 */
import {
  apiPaths,
  EVENT_TYPES,
  generateRequestId,
  type PrescriptionEvent,
  type Tokens,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@hcp/contract';
import type { Bundle, MessageHeader, Task } from '@medplum/fhirtypes';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { validated } from '../src/features/fhir/validate.ts';
import { signatureHeader } from '../src/features/fhir/webhooks/deliver.ts';
import { recordDecision } from '../src/lib/decisions.ts';
import { postponeDate, refillRequests as refillRequestsOf } from './support/action-needed.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

const BASE = '/api/mdo/v1/webhook-endpoints';
// Retries in milliseconds instead of seconds: the schedule's shape is what is tested.
const LIMITS = { WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_RETRY_CAP_MS: '160', WEBHOOK_GIVE_UP_MS: '600' };

let t: TestApp;
let admin: Tokens;
let morgan: Tokens;
let receiver: Receiver;
let endpoint: WebhookEndpoint;

beforeAll(async () => {
  t = await buildTestApp({ env: { ...LIMITS, PUBLIC_URL: 'https://portal.test' } });
  admin = await signIn(t.app, 'admin@demo.hcp');
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  receiver = await startReceiver();
  const created = await createEndpoint({ url: receiver.url, events: ['refill.authorized', 'refill.denied', 'refill.postponed'] });
  endpoint = created.endpoint;
  receiver.secrets = [created.secret];
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  receiver.answer = () => 204;
});

async function createEndpoint(body: Record<string, unknown>, tokens = admin) {
  const res = await injectAs(t.app, tokens, { method: 'POST', url: BASE, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as WebhookEndpointWithSecret;
}
const write = (tokens: Tokens, url: string, payload: unknown, method: 'POST' | 'PATCH' = 'POST') =>
  injectAs(t.app, tokens, {
    method,
    url,
    payload: payload as Record<string, unknown>,
    headers: { 'x-request-id': generateRequestId() },
  });

/** Runs worker rounds until nothing is left to do or `until` holds (retries wait for their time). */
async function drain(until: () => boolean = () => false, maxMs = 5000) {
  const started = Date.now();
  while (Date.now() - started < maxMs) {
    const done = await t.app.webhookWorker.runOnce();
    if (until()) return;
    if (done.dispatched + done.attempted === 0) {
      const [open] = await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(s.webhookDeliveries)
        .where(sql`${s.webhookDeliveries.status} in ('pending', 'sending')`);
      if (!open?.n) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

const refillRequests = (tokens: Tokens = morgan) => refillRequestsOf(t.app, tokens);
async function timelineOf(id: string, tokens: Tokens = morgan) {
  const res = await injectAs(t.app, tokens, { method: 'GET', url: apiPaths.prescriptionEvents(id) });
  expect(res.statusCode).toBe(200);
  return res.json() as PrescriptionEvent[];
}
/** The newest event of a type on a timeline (the seed's timelines hold earlier answers of their own). */
const latestOf = (events: PrescriptionEvent[], type: string) =>
  events.filter((e) => e.type === type).sort((a, b) => b.id - a.id)[0];
const bundleOf = (body: string) => JSON.parse(body) as Bundle;
const deliveriesOf = async (status?: string) => {
  const res = await injectAs(t.app, admin, {
    method: 'GET',
    url: `${BASE}/${endpoint.id}/deliveries${status ? `?status=${status}` : ''}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { records: WebhookDelivery[]; total: number };
};

describe('registering endpoints', () => {
  it('answers the secret once; lists never carry it; only the tenant admin may see or change endpoints (404 for others)', async () => {
    const created = await createEndpoint({ url: 'https://pharmacy.example/hooks', events: ['refill.denied'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await injectAs(t.app, admin, { method: 'GET', url: BASE });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json().records.map((e: WebhookEndpoint) => e.id)).toContain(created.endpoint.id);
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    for (const tokens of [morgan, staff, await signIn(t.app, 'sales@demo.hcp')]) {
      expect((await injectAs(t.app, tokens, { method: 'GET', url: BASE })).statusCode).toBe(404);
      expect((await write(tokens, BASE, { url: receiver.url, events: ['refill.denied'] })).statusCode).toBe(404);
    }
    const audit = await t.database.db.select().from(s.auditLog).where(eq(s.auditLog.entityId, created.endpoint.id));
    expect(audit.map((a) => a.action)).toContain('webhook-endpoint.created');
    // Turned off, it asks for nothing more (the rest of this file delivers to the local receiver only).
    const off = await write(admin, `${BASE}/${created.endpoint.id}`, { enabled: false }, 'PATCH');
    expect(off.json()).toMatchObject({ enabled: false, disabledReason: 'admin' });
  });

  it('refuses bad input in the one error shape and writes nothing', async () => {
    const before = (await t.database.db.select().from(s.webhookEndpoints)).length;
    for (const body of [
      { url: 'not a url', events: ['refill.denied'] },
      { url: 'ftp://pharmacy.example/x', events: ['refill.denied'] },
      { url: 'https://pharmacy.example/x', events: [] },
      { url: 'https://pharmacy.example/x', events: ['refill.exploded'] },
      { events: ['refill.denied'] },
    ]) {
      const res = await write(admin, BASE, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await t.database.db.select().from(s.webhookEndpoints)).length).toBe(before);
  });

  it('insists on https where plain http is not allowed (production)', async () => {
    const strict = await buildTestApp({ env: { WEBHOOK_ALLOW_HTTP: 'off' } });
    try {
      const strictAdmin = await signIn(strict.app, 'admin@demo.hcp');
      const res = await injectAs(strict.app, strictAdmin, {
        method: 'POST',
        url: BASE,
        payload: { url: 'http://pharmacy.example/hooks', events: ['refill.denied'] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('The address must be https.');
    } finally {
      await strict.close();
    }
  });
});

describe('delivering decisions', () => {
  it('a refill authorized by fax reaches the receiver signed, as a valid FHIR message naming the Task and what was decided', async () => {
    const [entry] = await refillRequests();
    if (!entry) throw new Error('no refill request in the demo seed');
    const rxId = entry.prescription.id;
    const res = await write(morgan, `/api/mdo/v1/prescriptions/${rxId}/refills-authorized/fax`, {
      refills: 3,
      sig: 'Take one daily',
      senderName: 'Dr Morgan',
    });
    expect(res.statusCode, res.body).toBe(200);
    const before = receiver.received.length;
    await drain(() => receiver.received.length > before);
    const got = receiver.received.at(-1);
    expect(got?.verified).toBe(true);
    expect(got?.signature).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const bundle = validated<Bundle>(bundleOf(got?.body ?? ''), 'Bundle');
    expect(bundle.type).toBe('message');
    expect(bundle.id).toBe(got?.id);
    const header = bundle.entry?.[0]?.resource as MessageHeader;
    expect(header.eventCoding).toEqual({ system: 'urn:hcp-portal:event', code: 'refill.authorized' });
    const task = bundle.entry?.[1]?.resource as Task;
    expect(header.focus?.[0]?.reference).toBe(bundle.entry?.[1]?.fullUrl);
    expect(task.status).toBe('completed');
    expect(task.focus?.reference).toBe(`MedicationRequest/${rxId}`);
    const outputs = Object.fromEntries((task.output ?? []).map((o) => [o.type.coding?.[0]?.code, o]));
    expect(outputs.channel?.valueCode).toBe('fax');
    expect(outputs.refills?.valueInteger).toBe(3);
    expect(outputs.sig?.valueString).toBe('Take one daily');
    // The timeline says it reached the pharmacy's system.
    const event = latestOf(await timelineOf(rxId), EVENT_TYPES.refillAuthorizedFax);
    expect(event?.delivery?.status).toBe('delivered');
    expect(event?.delivery?.deliveredAt).toBeTruthy();
  });

  it('does not send events the endpoint did not ask for, nor another tenant’s decisions', async () => {
    const kim = await signIn(t.app, 'dr.kim@harrow.demo.hcp', 'harrow.localhost');
    const [theirs] = await refillRequests(kim);
    if (!theirs) throw new Error('no Harrow refill request in the demo seed');
    const before = receiver.received.length;
    const denied = await write(kim, `/api/mdo/v1/prescriptions/${theirs.prescription.id}/refills-denied`, {
      reason: 'NEED_OFFICE_VISIT',
      senderName: 'Dr Kim',
    });
    expect(denied.statusCode, denied.body).toBe(200);
    await drain();
    expect(receiver.received.slice(before).some((r) => r.body.includes(theirs.prescription.id))).toBe(false);
    expect((await timelineOf(theirs.prescription.id, kim)).every((e) => e.delivery === undefined)).toBe(true);
  });

  it('a failing receiver gets retries with growing delays, then the delivery is dead; redelivery sends the same webhook-id', async () => {
    receiver.answer = () => 503;
    const [entry] = await refillRequests();
    if (!entry) throw new Error('no refill request left');
    const rxId = entry.prescription.id;
    const before = receiver.received.length;
    const denied = await write(morgan, `/api/mdo/v1/prescriptions/${rxId}/refills-denied`, {
      reason: 'NEED_OFFICE_VISIT',
      senderName: 'Dr Morgan',
    });
    expect(denied.statusCode).toBe(200);
    await t.app.webhookWorker.runOnce();
    const failing = latestOf(await timelineOf(rxId), EVENT_TYPES.refillDenied);
    expect(failing?.delivery?.status).toBe('failing');
    expect(Date.parse(failing?.delivery?.nextAttemptAt ?? '')).toBeGreaterThan(Date.now() - 1000);
    await drain(() => false, 4000);
    const tries = receiver.received.slice(before).filter((r) => r.body.includes(rxId));
    expect(tries.length).toBeGreaterThanOrEqual(3);
    expect(new Set(tries.map((r) => r.id)).size).toBe(1);
    // Delays grow: the gap before retry n is at least half of base x 2^(n-1), capped (the jitter's floor).
    tries.slice(1).forEach((r, i) => {
      const floor = Math.min(160, 40 * 2 ** i) / 2;
      expect(r.receivedAt - (tries[i]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(floor - 5);
    });
    const dead = (await deliveriesOf('dead')).records.find((d) => d.prescriptionId === rxId);
    expect(dead).toMatchObject({ status: 'dead', lastStatus: 503, lastError: 'The receiver answered 503.' });
    expect(dead?.attempts).toBe(tries.length);
    expect(latestOf(await timelineOf(rxId), EVENT_TYPES.refillDenied)?.delivery?.status).toBe('dead');

    receiver.answer = () => 200;
    const again = await write(admin, `${BASE}/${endpoint.id}/deliveries/${dead?.id}/redeliver`, {});
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().status).toBe('waiting');
    await drain();
    const last = receiver.received.at(-1);
    expect(last?.id).toBe(dead?.id);
    expect(last?.answered).toBe(200);
    expect(latestOf(await timelineOf(rxId), EVENT_TYPES.refillDenied)?.delivery?.status).toBe('delivered');
  });

  it('"redeliver all failed" sends every dead delivery again', async () => {
    receiver.answer = () => 500;
    const entries = (await refillRequests()).slice(0, 2);
    for (const entry of entries) {
      const res = await write(morgan, `/api/mdo/v1/prescriptions/${entry.prescription.id}/refills-postponed`, {
        refillPostponedToDate: postponeDate(),
        senderName: 'Dr Morgan',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await drain(() => false, 4000);
    const dead = (await deliveriesOf('dead')).records.length;
    expect(dead).toBeGreaterThanOrEqual(2);
    receiver.answer = () => 204;
    const res = await write(admin, `${BASE}/${endpoint.id}/redeliver-failed`, {});
    expect(res.json()).toEqual({ redelivered: dead });
    await drain();
    expect((await deliveriesOf('dead')).total).toBe(0);
  });

  it('410 Gone turns the endpoint off; turned back on, the waiting decision goes', async () => {
    receiver.answer = () => 410;
    const [entry] = await refillRequests();
    if (!entry) throw new Error('no refill request left');
    const rxId = entry.prescription.id;
    await write(morgan, `/api/mdo/v1/prescriptions/${rxId}/refills-postponed`, {
      refillPostponedToDate: postponeDate(),
      senderName: 'Dr Morgan',
    });
    await drain(() => false, 1000);
    const list = (await injectAs(t.app, admin, { method: 'GET', url: BASE })).json().records as WebhookEndpoint[];
    expect(list.find((e) => e.id === endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    const tries = receiver.received.filter((r) => r.body.includes(rxId)).length;
    expect(tries).toBe(1);

    receiver.answer = () => 204;
    const on = await write(admin, `${BASE}/${endpoint.id}`, { enabled: true }, 'PATCH');
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null });
    await drain();
    expect(receiver.received.at(-1)?.body).toContain(rxId);
    expect(receiver.received.at(-1)?.answered).toBe(204);
  });

  it('keeps a prescription’s decisions in order while the first one is still failing', async () => {
    const [entry] = await refillRequests();
    if (!entry) throw new Error('no refill request left');
    const rxId = entry.prescription.id;
    const [first, second] = [postponeDate(), postponeDate()];
    await t.database.db.transaction(async (tx) => {
      for (const postponedTo of [first, second]) {
        await recordDecision(tx, {
          prescriptionId: rxId,
          type: EVENT_TYPES.refillPostponed,
          actorUserId: morgan.userID,
          requestId: generateRequestId(),
          data: { postponedTo },
        });
      }
    });
    let failed = 0;
    receiver.answer = () => (failed++ < 2 ? 500 : 204);
    await drain();
    const accepted = receiver.received.filter((r) => r.body.includes(rxId) && r.answered === 204);
    const order = accepted.map((r) => /"valueDate":"(\d{4}-\d\d-\d\d)"/.exec(r.body)?.[1]);
    expect(order).toEqual([first, second]);
  });

  it('a delivery whose worker vanished mid-send is taken over after its lease, with the same webhook-id', async () => {
    const [entry] = await refillRequests();
    if (!entry) throw new Error('no refill request left');
    await write(morgan, `/api/mdo/v1/prescriptions/${entry.prescription.id}/refills-postponed`, {
      refillPostponedToDate: postponeDate(),
      senderName: 'Dr Morgan',
    });
    // Dispatch only, then play a worker that claimed it and died: status sending, lease already over.
    const { dispatchDecisions } = await import('../src/features/fhir/webhooks/dispatch.ts');
    await dispatchDecisions(t.database.db, { baseUrl: 'https://portal.test', url: () => 'unused' });
    const [row] = await t.database.db
      .update(s.webhookDeliveries)
      .set({ status: 'sending', attempts: 1, leaseToken: crypto.randomUUID(), leaseUntil: new Date(Date.now() - 1000) })
      .where(and(eq(s.webhookDeliveries.prescriptionId, entry.prescription.id), eq(s.webhookDeliveries.status, 'pending')))
      .returning();
    expect(row).toBeDefined();
    await drain();
    const last = receiver.received.at(-1);
    expect(last?.id).toBe(row?.id);
    const [after] = await t.database.db
      .select()
      .from(s.webhookDeliveries)
      .where(eq(s.webhookDeliveries.id, row?.id ?? ''));
    expect(after).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});

describe('rotating the secret', () => {
  it('answers a new secret once; for a day both old and new sign, so the receiver can switch without a gap', async () => {
    const old = receiver.secrets[0] as string;
    const res = await write(admin, `${BASE}/${endpoint.id}/rotate-secret`, {});
    expect(res.statusCode).toBe(200);
    const { secret, endpoint: rotated } = res.json() as WebhookEndpointWithSecret;
    expect(secret).not.toBe(old);
    expect(Date.parse(rotated.previousSecretValidUntil ?? '') - Date.now()).toBeGreaterThan(23 * 3600_000);
    const at = new Date();
    const header = signatureHeader(
      { secret, previousSecret: old, previousSecretUntil: new Date(Date.now() + 3600_000) },
      'msg',
      at,
      '{}',
    );
    expect(header.split(' ')).toHaveLength(2);
    // A receiver that knows only the new secret, and one that knows only the old: both accept the next delivery.
    for (const known of [[secret], [old]]) {
      receiver.secrets = known;
      const [entry] = await refillRequests();
      if (!entry) throw new Error('no refill request left');
      await write(morgan, `/api/mdo/v1/prescriptions/${entry.prescription.id}/refills-postponed`, {
        refillPostponedToDate: postponeDate(),
        senderName: 'Dr Morgan',
      });
      await drain();
      expect(receiver.received.at(-1)?.verified).toBe(true);
    }
    receiver.secrets = [secret];
  });
});

describe('waking the worker', () => {
  it('a committed decision wakes the worker (NOTIFY) at once, long before its next poll', async () => {
    const woken = await buildTestApp({ env: { WEBHOOK_POLL_MS: '60000', PUBLIC_URL: 'https://portal.test' } });
    const listener = await startReceiver();
    try {
      const woAdmin = await signIn(woken.app, 'admin@demo.hcp');
      const created = await injectAs(woken.app, woAdmin, {
        method: 'POST',
        url: BASE,
        payload: { url: listener.url, events: ['refill.postponed'] },
      });
      listener.secrets = [(created.json() as WebhookEndpointWithSecret).secret];
      const doctor = await signIn(woken.app, 'dr.morgan@demo.hcp');
      const rx = (await refillRequestsOf(woken.app, doctor))[0]?.prescription.id;
      const res = await injectAs(woken.app, doctor, {
        method: 'POST',
        url: `/api/mdo/v1/prescriptions/${rx}/refills-postponed`,
        payload: { refillPostponedToDate: postponeDate(), senderName: 'Dr Morgan' },
        headers: { 'x-request-id': generateRequestId() },
      });
      expect(res.statusCode).toBe(200);
      // The next poll is 60 s away and this test may take 30 s at most: a delivery at all was woken by NOTIFY. Decided
      // by the receiver's event, not a wall-clock bound (issue 44).
      expect((await listener.first()).verified).toBe(true);
    } finally {
      await listener.close();
      await woken.close();
    }
  });

  // Issue 46: every message this file's decisions delivered, whatever the test, is a valid R4 Bundle (structure,
  // cardinality, types and the resources inside it), read against the base definitions.
  it('delivered only valid FHIR R4 message Bundles', () => {
    expect(receiver.received.length).toBeGreaterThan(5);
    for (const got of receiver.received) {
      const bundle = validated<Bundle>(bundleOf(got.body), 'Bundle');
      expect(bundle.type).toBe('message');
    }
  });
});
