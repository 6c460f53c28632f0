/** Prescribe Rx: who may, the catalogue, creating a prescription (existing or new patient), refusals, drafts. */
import { CONTROLLED_SUBSTANCE_MESSAGE, createdPrescriptionSchema, type Tokens } from '@hcp/contract';
import { and, count, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { errorPaths } from './support/errors.ts';

let t: TestApp;
let morgan: Tokens;
let staff: Tokens;
let admin: Tokens;
let morganOfficeId: string;
let xifaxanId: string;
let controlledId: string;
beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  [morgan, staff, admin] = await Promise.all([
    signIn(t.app, 'dr.morgan@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
    signIn(t.app, 'admin@demo.hcp'),
  ]);
  const [office] = await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.name, 'Morgan Family Medicine'));
  morganOfficeId = office?.id as string;
  const products = await t.database.db.select().from(s.drugProducts);
  xifaxanId = products.find((p) => p.name === 'Xifaxan' && p.strength === '550 mg')?.id as string;
  controlledId = products.find((p) => p.isControlled)?.id as string;
});
afterAll(() => t.close());

let n = 0;
const nextId = () => `rxnew${String(++n).padStart(19, '0')}`;
const as = (who: Tokens, options: InjectOptions, requestId = nextId()) =>
  injectAs(t.app, who, { ...options, headers: { 'x-request-id': requestId } });
const order = (extra: Record<string, unknown> = {}) => ({
  productId: xifaxanId,
  quantity: 42,
  daysSupply: 14,
  refills: 2,
  sig: 'Take 1 tablet by mouth three times daily',
  substitutionAllowed: false,
  notesToPharmacist: 'Patient prefers morning delivery.',
  ...extra,
});
const newPatient = (extra: Record<string, unknown> = {}) => ({
  fullName: 'Nadia Okafor',
  dob: '1984-03-09',
  phoneNumber: '(614) 555-0142',
  address1: '88 High St',
  address2: '',
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  ...extra,
});
const create = (who: Tokens, body: unknown, requestId?: string) =>
  as(
    who,
    { method: 'POST', url: `/api/mdo/v1/users/${who.userID}/prescriptions`, payload: body as Record<string, unknown> },
    requestId,
  );
const rxCount = async () => (await t.database.db.select({ n: count() }).from(s.prescriptions))[0]?.n ?? 0;

describe('who may prescribe', () => {
  it('is a prescriber of an office with prescribing enabled, with the flag on; others get 404', async () => {
    expect((await as(morgan, { method: 'GET', url: '/api/mdo/v1/drug-catalogue?searchText=xif' })).statusCode).toBe(200);
    for (const who of [staff, admin]) {
      expect((await as(who, { method: 'GET', url: '/api/mdo/v1/drug-catalogue?searchText=xif' })).statusCode).toBe(404);
    }
    await t.database.db.update(s.featureFlags).set({ enabled: false }).where(eq(s.featureFlags.key, 'isHcpPrescribingEnabled'));
    try {
      expect((await as(morgan, { method: 'GET', url: '/api/mdo/v1/drug-catalogue?searchText=xif' })).statusCode).toBe(404);
    } finally {
      await t.database.db.update(s.featureFlags).set({ enabled: true }).where(eq(s.featureFlags.key, 'isHcpPrescribingEnabled'));
    }
    await t.database.db.update(s.mdOffices).set({ prescribingEnabled: false }).where(eq(s.mdOffices.id, morganOfficeId));
    try {
      expect((await create(morgan, { patient: { newPatient: newPatient() }, order: order() })).statusCode).toBe(404);
    } finally {
      await t.database.db.update(s.mdOffices).set({ prescribingEnabled: true }).where(eq(s.mdOffices.id, morganOfficeId));
    }
  });
});

describe('the catalogue', () => {
  it('finds products by name or NDC, with strength, form and whether they are controlled', async () => {
    const byName = (await as(morgan, { method: 'GET', url: '/api/mdo/v1/drug-catalogue?searchText=XIFAX' })).json();
    expect(byName.map((p: { strength: string }) => p.strength).sort()).toEqual(['200 mg', '550 mg']);
    expect(byName[0]).toMatchObject({ name: 'Xifaxan', form: 'tablet', isControlled: false });
    const byNdc = (await as(morgan, { method: 'GET', url: '/api/mdo/v1/drug-catalogue?searchText=6564903030' })).json();
    expect(byNdc.map((p: { ndc: string }) => p.ndc)).toEqual(['65649-0303-03']);
    expect((await as(morgan, { method: 'GET', url: '/api/mdo/v1/drug-catalogue?searchText=x' })).statusCode).toBe(400);
  });
});

describe('creating a prescription', () => {
  it('for an existing patient: one transaction with event, outbox message and audit; visible in the patient and Rx list', async () => {
    const [patient] = await t.database.db.select().from(s.patients).where(eq(s.patients.mdOfficeId, morganOfficeId)).limit(1);
    const res = await create(morgan, { patient: { patientId: patient?.id }, order: order() });
    expect(res.statusCode, res.body).toBe(201);
    const created = createdPrescriptionSchema.parse(res.json());
    expect(created).toMatchObject({ patientId: patient?.id, sentVia: 'eRx', drugName: 'Xifaxan' });
    const [rx] = await t.database.db.select().from(s.prescriptions).where(eq(s.prescriptions.id, created.prescriptionId));
    expect(rx).toMatchObject({
      quantity: 42,
      daysSupply: 14,
      refills: 2,
      dispenseAsWritten: true,
      prescribedNdc: '65649-0303-03',
      pharmacyNotes: 'Patient prefers morning delivery.',
      orderNumber: created.orderNumber,
      mdOfficeId: morganOfficeId,
    });
    const events = await t.database.db
      .select()
      .from(s.prescriptionEvents)
      .where(eq(s.prescriptionEvents.prescriptionId, created.prescriptionId));
    expect(events.map((e) => e.type)).toEqual(['PRESCRIBED']);
    const [message] = await t.database.db.select().from(s.outbox).where(eq(s.outbox.prescriptionId, created.prescriptionId));
    expect(message).toMatchObject({ channel: 'erx', status: 'pending' });
    const [audit] = await t.database.db
      .select({ n: count() })
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'prescription.create'), eq(s.auditLog.entityId, created.prescriptionId)));
    expect(audit?.n).toBe(1);

    const detail = await as(morgan, { method: 'GET', url: `/api/mdo/v1/users/${morgan.userID}/patients/${patient?.id}` });
    expect(detail.json().prescriptions.map((p: { id: string }) => p.id)).toContain(created.prescriptionId);
    const list = await as(morgan, {
      method: 'GET',
      url: `/api/mdo/v1/users/${morgan.userID}/rx-list?startdate=2026-11-19&enddate=2026-11-20`,
    });
    expect(list.json().map((r: { orderNumber: string }) => r.orderNumber)).toContain(created.orderNumber);
  });

  it('sends by fax when the office prefers fax', async () => {
    await t.database.db.update(s.mdOffices).set({ prescribeVia: 'Fax' }).where(eq(s.mdOffices.id, morganOfficeId));
    try {
      const res = await create(morgan, { patient: { newPatient: newPatient({ fullName: 'Faxed Patient' }) }, order: order() });
      const created = createdPrescriptionSchema.parse(res.json());
      expect(created.sentVia).toBe('Fax');
      const [message] = await t.database.db.select().from(s.outbox).where(eq(s.outbox.prescriptionId, created.prescriptionId));
      expect(message?.channel).toBe('fax');
    } finally {
      await t.database.db.update(s.mdOffices).set({ prescribeVia: 'eRx' }).where(eq(s.mdOffices.id, morganOfficeId));
    }
  });

  it('for a new patient: adds them to the practice; a repeated request acts once', async () => {
    const before = await rxCount();
    const requestId = 'rxNewPatientOnce00000001';
    const first = await create(morgan, { patient: { newPatient: newPatient() }, order: order() }, requestId);
    const again = await create(morgan, { patient: { newPatient: newPatient() }, order: order() }, requestId);
    expect(first.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await rxCount()).toBe(before + 1);
    const [patient] = await t.database.db.select().from(s.patients).where(eq(s.patients.id, first.json().patientId));
    expect(patient).toMatchObject({ firstName: 'Nadia', lastName: 'Okafor', dob: '1984-03-09', mdOfficeId: morganOfficeId });
    expect(patient?.phoneNumbers).toEqual(['(614) 555-0142']);
  });

  it('validates every field and writes nothing', async () => {
    const before = await rxCount();
    const res = await create(morgan, {
      patient: {
        newPatient: newPatient({ fullName: 'Nadia', dob: '1984-13-40', phoneNumber: '555', zip: '4', state: 'DC', city: '' }),
      },
      order: order({ quantity: 0, daysSupply: 400, refills: 12, sig: '', productId: 'nope' }),
    });
    expect(res.statusCode).toBe(400);
    const paths = errorPaths(res);
    expect(paths).toEqual(
      [
        'body.order.daysSupply',
        'body.order.productId',
        'body.order.quantity',
        'body.order.refills',
        'body.order.sig',
        'body.patient.newPatient.city',
        'body.patient.newPatient.dob',
        'body.patient.newPatient.fullName',
        'body.patient.newPatient.phoneNumber',
        'body.patient.newPatient.state',
        'body.patient.newPatient.zip',
      ].sort(),
    );
    expect(await rxCount()).toBe(before);
  });

  it('refuses controlled substances with a clear reason, and a patient of another practice is 404', async () => {
    const before = await rxCount();
    const controlled = await create(morgan, {
      patient: { newPatient: newPatient({ fullName: 'Cora Control' }) },
      order: order({ productId: controlledId }),
    });
    expect(controlled.statusCode).toBe(400);
    expect(controlled.json().error.details).toEqual([{ path: 'body.order.productId', message: CONTROLLED_SUBSTANCE_MESSAGE }]);
    const [other] = await t.database.db
      .select()
      .from(s.patients)
      .innerJoin(s.mdOffices, eq(s.mdOffices.id, s.patients.mdOfficeId))
      .where(eq(s.mdOffices.name, 'Morgan Family Medicine'))
      .limit(1);
    expect(other).toBeDefined();
    const [foreign] = await t.database.db
      .select({ id: s.patients.id })
      .from(s.patients)
      .where(
        and(
          eq(
            s.patients.mdOfficeId,
            (await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.isVam, true)))[0]?.id as string,
          ),
        ),
      )
      .limit(1);
    expect((await create(morgan, { patient: { patientId: foreign?.id }, order: order() })).statusCode).toBe(404);
    expect(await rxCount()).toBe(before);
    const [patientsNamedCora] = await t.database.db
      .select({ n: count() })
      .from(s.patients)
      .where(eq(s.patients.firstName, 'Cora'));
    expect(patientsNamedCora?.n).toBe(0);
  });
});

describe('drafts', () => {
  it('keeps one draft per prescriber until sent or discarded', async () => {
    const url = `/api/mdo/v1/users/${morgan.userID}/prescription-draft`;
    expect((await as(morgan, { method: 'GET', url })).json()).toEqual({ draft: null, updatedAt: null });
    await as(morgan, { method: 'PUT', url, payload: { draft: { sig: 'Take 1 daily', quantity: '30' } } });
    expect((await as(morgan, { method: 'GET', url })).json().draft).toEqual({ sig: 'Take 1 daily', quantity: '30' });
    const tooBig = await as(morgan, { method: 'PUT', url, payload: { draft: { notes: 'x'.repeat(40_000) } } });
    expect(tooBig.statusCode).toBe(413);
    await create(morgan, { patient: { newPatient: newPatient({ fullName: 'Drafted Patient' }) }, order: order() });
    expect((await as(morgan, { method: 'GET', url })).json().draft).toBeNull();
    await as(morgan, { method: 'PUT', url, payload: { draft: { sig: 'again' } } });
    await as(morgan, { method: 'DELETE', url });
    expect((await as(morgan, { method: 'GET', url })).json().draft).toBeNull();
    expect((await as(staff, { method: 'GET', url: `/api/mdo/v1/users/${staff.userID}/prescription-draft` })).statusCode).toBe(
      404,
    );
  });
});
