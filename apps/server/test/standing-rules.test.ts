/**
 * Standing rules (issue 23): a prescriber's "stop asking" rules answer matching refill requests — the open ones when a
 * rule is saved (exactly what the preview said), new ones as the pharmacy sends them — as a denial the pharmacy hears
 * of, named on the timeline and counted on the rule. Only the practice's prescribers make rules; controlled
 * substances always reach the prescriber.
 */
import { EVENT_TYPES, generateRequestId, STANDING_RULE_MESSAGES, type StandingRule } from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { fhirAs, medicationRequest, patient, systemToken, TASK_SYSTEM, task } from './support/fhir.ts';

const PUBLIC_URL = 'https://portal.test';
let t: TestApp;
let morgan: Awaited<ReturnType<typeof signIn>>;
let practiceId: string;
let npi: string;
let token: string;

const db = () => t.database.db;
const base = (userId: string) => `/api/mdo/v1/users/${userId}/standing-rules`;
const write = (
  who: typeof morgan,
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
  requestId = generateRequestId(),
) => injectAs(t.app, who, { method, url, headers: { 'x-request-id': requestId }, ...(payload === undefined ? {} : { payload }) });

const fhir = (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => fhirAs(t, token, method, url, body);

/** The practice's open refill requests, by drug. */
async function openRequests() {
  return (await db().execute(sql`select id, drug_name as "drugName", patient_id as "patientId", version
    from prescriptions where md_office_id = ${practiceId}::uuid and needs_refill_auth order by id`)) as unknown as {
    rows: { id: string; drugName: string; patientId: string; version: number }[];
  };
}

const stamp = Date.now().toString(36);
/** A new patient and prescription of the practice through the FHIR API, then a refill request Task for it. */
async function refillRequestArrives(key: string, medication: Record<string, unknown>, existingPatientId?: string) {
  let patientId = existingPatientId;
  if (!patientId) {
    const pt = await fhir('POST', '/Patient', patient(practiceId, `${stamp}-${key}`));
    expect(pt.statusCode, pt.body).toBe(201);
    patientId = pt.json().id as string;
  }
  const rx = await fhir(
    'POST',
    '/MedicationRequest',
    medicationRequest(npi, `${stamp}-${key}`, patientId, { medicationCodeableConcept: medication }),
  );
  expect(rx.statusCode, rx.body).toBe(201);
  const created = await fhir(
    'PUT',
    `/Task?identifier=${TASK_SYSTEM}|${stamp}-${key}`,
    task(`${stamp}-${key}`, 'refill-request', rx.json().id),
  );
  expect(created.statusCode, created.body).toBe(201);
  return { prescriptionId: rx.json().id as string, patientId: patientId as string, task: created.json() };
}

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  const [row] = await db()
    .select({ officeId: s.officeMembers.mdOfficeId, npi: s.mdStaff.npi, tenantId: s.users.tenantId })
    .from(s.users)
    .innerJoin(s.mdStaff, eq(s.mdStaff.id, s.users.mdStaffId))
    .innerJoin(s.officeMembers, eq(s.officeMembers.mdStaffId, s.mdStaff.id))
    .where(eq(s.users.email, 'dr.morgan@demo.hcp'));
  practiceId = row?.officeId as string;
  npi = row?.npi as string;
  ({ token } = await systemToken(t, {
    tenantId: row?.tenantId as string,
    scopes: ['system/Patient.write', 'system/MedicationRequest.write', 'system/Task.write', 'system/*.read'],
    publicUrl: PUBLIC_URL,
  }));
});
afterAll(() => t.close());

describe('saving a rule', () => {
  it('answers exactly the open requests the preview named, as denials the pharmacy hears of, named on the timeline', async () => {
    const before = (await openRequests()).rows;
    const drug = before[0]?.drugName as string;
    const matching = before.filter((r) => r.drugName.toLowerCase().startsWith(drug.toLowerCase()));
    expect(matching.length).toBeGreaterThan(0);
    const draft = { name: `${drug} stopped`, practiceId, action: 'discontinued', drugName: drug };

    const preview = await write(morgan, 'POST', `${base(morgan.userID)}/preview`, { rule: draft });
    expect(preview.statusCode, preview.body).toBe(200);
    const previewIds = (preview.json().items as { prescriptionId: string }[]).map((i) => i.prescriptionId).sort();
    expect(previewIds).toEqual(matching.map((r) => r.id).sort());
    // The preview changed nothing.
    expect((await openRequests()).rows).toEqual(before);

    const saved = await write(morgan, 'POST', base(morgan.userID), draft);
    expect(saved.statusCode, saved.body).toBe(201);
    const { rule, answered } = saved.json() as { rule: StandingRule; answered: { prescriptionId: string }[] };
    expect(answered.map((a) => a.prescriptionId).sort()).toEqual(previewIds);
    expect(rule).toMatchObject({ name: draft.name, enabled: true, answeredCount: previewIds.length, practiceId });

    const after = (await openRequests()).rows.map((r) => r.id);
    for (const id of previewIds) expect(after).not.toContain(id);
    expect(after.length).toBe(before.length - previewIds.length);

    const id = previewIds[0] as string;
    const [rx] = await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, id));
    expect(rx?.orderStatus).toBe('Refill denied: no longer taking this medication');
    const events = await db().select().from(s.prescriptionEvents).where(eq(s.prescriptionEvents.prescriptionId, id));
    const denial = events.find((e) => e.type === EVENT_TYPES.refillDenied);
    expect(denial?.data).toMatchObject({ reason: 'NO_LONGER_TAKING_MEDS', rule: { id: rule.id, name: draft.name } });
    const timeline = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${id}/events` });
    expect(JSON.stringify(timeline.json())).toContain(`answered by rule “${draft.name}”`);
    const messages = await db().select().from(s.outbox).where(eq(s.outbox.prescriptionId, id));
    expect(messages.map((m) => m.eventType)).toContain('refill.denied');
    const audits = await db()
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'standing-rule.answered'), eq(s.auditLog.entityId, id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.actorUserId).toBe(morgan.userID);

    // Read back on the list, with its count.
    const list = await injectAs(t.app, morgan, { method: 'GET', url: base(morgan.userID) });
    expect(list.statusCode).toBe(200);
    expect(list.json().records.find((r: StandingRule) => r.id === rule.id)).toMatchObject({ answeredCount: previewIds.length });
    expect(list.json().manageable.map((p: { practiceId: string }) => p.practiceId)).toContain(practiceId);
  });

  it('acts once for a repeated request id', async () => {
    const requestId = generateRequestId();
    const draft = {
      name: 'Once only',
      practiceId,
      action: 'needsVisit',
      drugName: 'Nonexistent drug name',
      note: 'Book a visit',
    };
    const first = await write(morgan, 'POST', base(morgan.userID), draft, requestId);
    const second = await write(morgan, 'POST', base(morgan.userID), draft, requestId);
    expect(first.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    const rows = await db().select().from(s.standingRules).where(eq(s.standingRules.name, 'Once only'));
    expect(rows).toHaveLength(1);
  });

  it('refuses a rule without a drug or patient, another practice’s prescriber, and a stale version', async () => {
    const bare = await write(morgan, 'POST', base(morgan.userID), { name: 'Everything', practiceId, action: 'discontinued' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error.details[0].message).toMatch(/Name a drug or a patient/);

    const [stranger] = await db()
      .select({ id: s.mdStaff.id })
      .from(s.mdStaff)
      .where(sql`${s.mdStaff.id} not in (select md_staff_id from office_members where md_office_id = ${practiceId}::uuid)`)
      .limit(1);
    const foreign = await write(morgan, 'POST', base(morgan.userID), {
      name: 'Foreign',
      practiceId,
      action: 'discontinued',
      drugName: 'Lisinopril',
      prescriberId: stranger?.id,
    });
    // Not one of the practice's prescribers: the pair is refused as out of reach (issue 42), nothing saved.
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe('HCP or staff member not found.');

    const made = await write(morgan, 'POST', base(morgan.userID), {
      name: 'Versioned',
      practiceId,
      action: 'discontinued',
      drugName: 'Nothing by this name',
    });
    const ruleId = made.json().rule.id as string;
    const rule = { name: 'Versioned 2', practiceId, action: 'discontinued', drugName: 'Nothing by this name' };
    expect((await write(morgan, 'PUT', `${base(morgan.userID)}/${ruleId}`, { rule, version: 0 })).statusCode).toBe(200);
    const stale = await write(morgan, 'PUT', `${base(morgan.userID)}/${ruleId}`, { rule, version: 0 });
    expect(stale.statusCode).toBe(409);
    const deleted = await write(morgan, 'DELETE', `${base(morgan.userID)}/${ruleId}`);
    expect(deleted.json()).toEqual({ id: ruleId, deleted: true });
    expect((await write(morgan, 'DELETE', `${base(morgan.userID)}/${ruleId}`)).statusCode).toBe(404);
  });

  it('lets only the practice’s prescribers write; staff read; others see nothing', async () => {
    const draft = { name: 'Staff try', practiceId, action: 'discontinued', drugName: 'Lisinopril' };
    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    expect((await injectAs(t.app, lee, { method: 'GET', url: base(lee.userID) })).json().manageable).toEqual([]);
    const byStaff = await write(lee, 'POST', base(lee.userID), draft);
    expect(byStaff.statusCode).toBe(403);
    expect(byStaff.json().error.message).toBe('Only a prescriber of the practice can make or change its standing rules.');
    for (const email of ['admin@demo.hcp', 'dr.patel@demo.hcp']) {
      const other = await signIn(t.app, email).catch(() => null);
      if (!other) continue; // dr.patel asks for MFA first
      expect((await write(other, 'POST', base(other.userID), draft)).statusCode).toBe(404);
      expect((await injectAs(t.app, other, { method: 'GET', url: base(other.userID) })).json().records).toEqual([]);
    }
    // Another user's path: 404, as everywhere.
    expect((await injectAs(t.app, lee, { method: 'GET', url: base(morgan.userID) })).statusCode).toBe(404);
  });
});

describe('a request arriving from the pharmacy', () => {
  it('is answered at once by the most specific enabled rule, and the Task reads answered', async () => {
    const made = await write(morgan, 'POST', base(morgan.userID), {
      name: 'Rosuvastatin: visit first',
      practiceId,
      action: 'needsVisit',
      drugName: 'Rosuvastatin',
      note: 'Please have the patient book a lipid panel visit.',
    });
    expect(made.statusCode, made.body).toBe(201);
    const ruleId = made.json().rule.id as string;

    const arrived = await refillRequestArrives('rosu', { text: 'Rosuvastatin 10 mg tablet' });
    const [rx] = await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, arrived.prescriptionId));
    expect(rx).toMatchObject({ needsRefillAuth: false, orderStatus: 'Refill denied: office visit needed' });
    const events = await db()
      .select()
      .from(s.prescriptionEvents)
      .where(eq(s.prescriptionEvents.prescriptionId, arrived.prescriptionId));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining([EVENT_TYPES.pharmacyRequested, EVENT_TYPES.refillDenied]));
    expect(events.find((e) => e.type === EVENT_TYPES.refillDenied)?.data).toMatchObject({
      rule: { id: ruleId },
      note: 'Please have the patient book a lipid panel visit.',
    });
    const read = await fhir('GET', `/Task?identifier=${TASK_SYSTEM}|${stamp}-rosu`);
    expect(read.json().entry[0].resource.status).toBe('completed');
    const [stored] = await db().select().from(s.standingRules).where(eq(s.standingRules.id, ruleId));
    expect(stored?.answeredCount).toBe(1);

    // Disabled, it answers nothing: the next request waits for the prescriber.
    const rule = { ...made.json().rule, enabled: false };
    const off = await write(morgan, 'PUT', `${base(morgan.userID)}/${ruleId}`, {
      rule: { name: rule.name, practiceId, action: rule.action, drugName: rule.drugName, note: rule.note, enabled: false },
      version: rule.version,
    });
    expect(off.statusCode, off.body).toBe(200);
    const waiting = await refillRequestArrives('rosu-2', { text: 'Rosuvastatin 10 mg tablet' });
    expect((await openRequests()).rows.map((r) => r.id)).toContain(waiting.prescriptionId);
  });

  it('never answers a controlled substance, even for a patient-wide rule', async () => {
    const arrived = await refillRequestArrives('ctrl', {
      text: 'Hydrocodone/APAP 5/325 mg tablet',
      coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '00406-0123-01' }],
    });
    // The request waits; a rule for this patient saved now answers nothing.
    const made = await write(morgan, 'POST', base(morgan.userID), {
      name: 'Patient moved away',
      practiceId,
      action: 'discontinued',
      patientId: arrived.patientId,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().answered).toEqual([]);
    const [rx] = await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, arrived.prescriptionId));
    expect(rx?.needsRefillAuth).toBe(true);
    // The same patient's other drug is answered by the rule as it arrives.
    const other = await refillRequestArrives('ctrl-2', { text: 'Metformin 500 mg tablet' }, arrived.patientId);
    const [answered] = await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, other.prescriptionId));
    expect(answered?.needsRefillAuth).toBe(false);
  });
});

describe('an “always send by fax” rule', () => {
  it('routes the waiting and arriving requests it matches by fax: eRx is refused, fax goes, nothing is answered', async () => {
    const arrived = await refillRequestArrives('fax-1', { text: 'Levothyroxine 50 mcg tablet' });
    const draft = { name: 'Levothyroxine by fax', practiceId, action: 'alwaysFax', drugName: 'Levothyroxine' };
    const preview = await write(morgan, 'POST', `${base(morgan.userID)}/preview`, { rule: draft });
    expect(preview.statusCode, preview.body).toBe(200);
    const previewIds = (preview.json().items as { prescriptionId: string }[]).map((i) => i.prescriptionId);
    expect(previewIds).toContain(arrived.prescriptionId);

    const saved = await write(morgan, 'POST', base(morgan.userID), draft);
    expect(saved.statusCode, saved.body).toBe(201);
    const ruleId = saved.json().rule.id as string;
    expect((saved.json().answered as { prescriptionId: string }[]).map((a) => a.prescriptionId)).toEqual(previewIds);
    const rowOf = async (id: string) => (await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, id)))[0];
    // Still waiting for the prescriber: a fax rule answers nothing.
    expect(await rowOf(arrived.prescriptionId)).toMatchObject({ needsRefillAuth: true, faxRuleId: ruleId });
    const timeline = await injectAs(t.app, morgan, {
      method: 'GET',
      url: `/api/mdo/v1/prescriptions/${arrived.prescriptionId}/events`,
    });
    expect(JSON.stringify(timeline.json())).toContain('Authorization goes by fax: rule “Levothyroxine by fax”');
    // The screens read it on the item.
    const list = await injectAs(t.app, morgan, {
      method: 'GET',
      url: `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_REFILL_AUTH`,
    });
    const item = (list.json().doctors as { patients: { prescriptions: { id: string; faxByRule: string | null }[] }[] }[])
      .flatMap((d) => d.patients.flatMap((p) => p.prescriptions))
      .find((rx) => rx.id === arrived.prescriptionId);
    expect(item?.faxByRule).toBe('Levothyroxine by fax');

    const erx = await write(morgan, 'POST', `/api/mdo/v1/prescriptions/${arrived.prescriptionId}/refills-authorized/erx`, {});
    expect(erx.statusCode).toBe(409);
    expect(erx.json().error.message).toBe(STANDING_RULE_MESSAGES.faxOnly);
    expect((await rowOf(arrived.prescriptionId))?.needsRefillAuth).toBe(true);
    const fax = await write(morgan, 'POST', `/api/mdo/v1/prescriptions/${arrived.prescriptionId}/refills-authorized/fax`, {
      refills: 2,
      sig: 'Take 1 tablet every morning',
      senderName: 'Dr. Alex Morgan',
    });
    expect(fax.statusCode, fax.body).toBe(200);

    // A request arriving later is routed as it arrives; deleting the rule sends it as the practice sends again.
    const later = await refillRequestArrives('fax-2', { text: 'Levothyroxine 75 mcg tablet' });
    expect(await rowOf(later.prescriptionId)).toMatchObject({ needsRefillAuth: true, faxRuleId: ruleId });
    const [stored] = await db().select().from(s.standingRules).where(eq(s.standingRules.id, ruleId));
    expect(stored?.answeredCount).toBe(previewIds.length + 1);
    expect((await write(morgan, 'DELETE', `${base(morgan.userID)}/${ruleId}`)).statusCode).toBe(200);
    expect((await rowOf(later.prescriptionId))?.faxRuleId).toBeNull();
  });

  it('may be one prescriber’s; never the whole practice’s (that is the practice’s “prescribe via”)', async () => {
    const wide = await write(morgan, 'POST', base(morgan.userID), { name: 'All by fax', practiceId, action: 'alwaysFax' });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().error.details[0].message).toBe(STANDING_RULE_MESSAGES.needsTarget);
    const [me] = await db().select().from(s.users).where(eq(s.users.email, 'dr.morgan@demo.hcp'));
    const mine = await write(morgan, 'POST', base(morgan.userID), {
      name: 'My eRx is down',
      practiceId,
      action: 'alwaysFax',
      prescriberId: me?.mdStaffId,
    });
    expect(mine.statusCode, mine.body).toBe(201);
    await write(morgan, 'DELETE', `${base(morgan.userID)}/${mine.json().rule.id}`);
  });
});
