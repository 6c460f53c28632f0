/**
 * The privacy officer's audit trail (issue 49), end to end on the real database: who saw a patient and what a person
 * did, by the path they came; both exported as CSV a spreadsheet cannot run and as FHIR AuditEvents that validate
 * against R4; support windows and unusual access reviewed once each with a note; nobody reviews themselves; the
 * seals checked from the screen's call. Only the tenant's privacy officers read any of it.
 */
import type { Tokens } from '@hcp/contract';
import { csvCell, dayInZone, UNUSUAL_ACCESS_RULES } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validated } from '../src/features/fhir/validate.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let admin: Tokens;
let staff: Tokens;
let prescriber: Tokens;
let support: Tokens;
let patientId: string;
let otherPatients: string[];
let harrowPatient: string;
const v1 = '/api/mdo/v1/audit-trail';
// The rows the routes write carry the database's clock: a range around the day the suite runs, in the reports' zone.
const dayAround = (days: number) => dayInZone('America/New_York', new Date(Date.now() + days * 86_400_000));
const [FROM, TO] = [dayAround(-60), dayAround(1)];
const YEAR = `from=${FROM}&to=${TO}`;

type Rows = Record<string, unknown>[];
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Rows }).rows;

beforeAll(async () => {
  t = await buildTestApp();
  [admin, staff, prescriber] = await Promise.all([
    signIn(t.app, 'admin@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
    signIn(t.app, 'dr.morgan@demo.hcp'),
  ]);
  await t.database.db.execute(sql`insert into users (tenant_id, email, role, user_type, display_name, password_hash)
    select tenant_id, 'support.admin@demo.hcp', role, user_type, 'Sam Support', password_hash from users where email = 'admin@demo.hcp'`);
  support = await signIn(t.app, 'support.admin@demo.hcp');
  const own = await rows(sql`select p.id from patients p join users u on u.md_office_id = p.md_office_id
    where u.email = 'staff.lee@demo.hcp' order by p.id limit 25`);
  patientId = String(own[0]?.id);
  otherPatients = own.slice(1).map((r) => String(r.id));
  harrowPatient = String(
    (
      await rows(sql`select p.id from patients p join md_offices o on o.id = p.md_office_id join tenants tn on tn.id = o.tenant_id
        where tn.key <> (select tn2.key from tenants tn2 join users u on u.tenant_id = tn2.id where u.email = 'admin@demo.hcp')
        limit 1`)
    )[0]?.id,
  );
});
afterAll(() => t.close());

const get = (tokens: Tokens, url: string) => injectAs(t.app, tokens, { method: 'GET', url });
const post = (tokens: Tokens, url: string, payload?: Record<string, unknown>) =>
  injectAs(t.app, tokens, { method: 'POST', url, ...(payload ? { payload } : {}) });

describe('patient access report', () => {
  it("lists who read and changed the patient's records, newest first, by path, and audits its own reading", async () => {
    // The staff member opens the patient in the portal; the support admin opens a window and reads it too.
    expect((await get(staff, `/api/mdo/v1/users/${staff.userID}/patients/${patientId}`)).statusCode).toBe(200);
    const office = String((await rows(sql`select md_office_id from patients where id = ${patientId}`))[0]?.md_office_id);
    expect(
      (
        await post(support, `/api/mdo/v1/users/${support.userID}/support-access`, {
          mdOfficeId: office,
          reason: 'Helping the practice find a lost refill request.',
          minutes: 30,
        })
      ).statusCode,
    ).toBe(201);
    expect((await get(support, `/api/mdo/v1/users/${support.userID}/patients/${patientId}`)).statusCode).toBe(200);
    // A pharmacy's system read it through FHIR (a system: no person, its client).
    await t.database.db.execute(sql`insert into audit_log (action, entity_type, entity_id, ip, details)
      values ('fhir.Patient.read', 'patient', ${patientId}, '10.0.0.9', '{"clientId": "matrix-client"}')`);

    const res = await get(admin, `${v1}/patient-access?patientId=${patientId}&${YEAR}`);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report.patient).toMatchObject({ id: patientId });
    const [fhir, bySupport, byStaff] = report.records;
    expect(fhir).toMatchObject({
      action: 'fhir.Patient.read',
      description: 'Read FHIR Patient',
      channel: 'pharmacy',
      ip: '10.0.0.9',
      actor: { userId: null, role: 'Pharmacy system' },
    });
    expect(bySupport).toMatchObject({
      action: 'patients.read',
      channel: 'support',
      actor: { userId: support.userID, name: 'Sam Support', role: 'Provider admin' },
    });
    expect(byStaff).toMatchObject({
      action: 'patients.read',
      description: "Opened the patient's record",
      outcome: 'success',
      channel: 'portal',
      actor: { userId: staff.userID, role: 'Staff' },
    });
    expect(byStaff.actor.practice).toBeTruthy();
    // Newest first; the report names no patient but its own (no patients column).
    expect(new Date(fhir.at) >= new Date(bySupport.at) && new Date(bySupport.at) >= new Date(byStaff.at)).toBe(true);
    expect(byStaff.patients).toBeUndefined();

    // Reading the report is itself in the patient's trail.
    const again = (await get(admin, `${v1}/patient-access?patientId=${patientId}&${YEAR}`)).json();
    expect(again.records[0]).toMatchObject({ action: 'audit.patient-access.read', actor: { userId: admin.userID } });
  });

  it('pages by 50 over the whole range and counts every row', async () => {
    await t.database.db.execute(sql`insert into audit_log (actor_user_id, action, entity_type, entity_id, created_at)
      select ${staff.userID}, 'patients.read', 'patient', ${patientId}, timestamptz '2026-03-01 12:00Z' + n * interval '1 minute'
      from generate_series(1, 60) n`);
    const first = (await get(admin, `${v1}/patient-access?patientId=${patientId}&from=2026-03-01&to=2026-03-01`)).json();
    expect(first).toMatchObject({ total: 60, page: 1, pageSize: 50 });
    expect(first.records).toHaveLength(50);
    const second = (await get(admin, `${v1}/patient-access?patientId=${patientId}&from=2026-03-01&to=2026-03-01&page=2`)).json();
    expect(second.records).toHaveLength(10);
    const ids = new Set([...first.records, ...second.records].map((r: { id: string }) => r.id));
    expect(ids.size).toBe(60);
  });

  it('refuses a date that does not exist, a range the wrong way round and one past six years', async () => {
    for (const range of ['from=2026-02-30&to=2026-03-01', 'from=2026-03-02&to=2026-03-01', 'from=2010-01-01&to=2026-12-31']) {
      const res = await get(admin, `${v1}/patient-access?patientId=${patientId}&${range}`);
      expect(res.statusCode, range).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('is found by nobody but a privacy officer, and never for another tenant’s patient', async () => {
    for (const who of [staff, prescriber, support]) {
      expect((await get(who, `${v1}/patient-access?patientId=${patientId}&${YEAR}`)).statusCode).toBe(404);
      expect((await post(who, `${v1}/patient-search`, { search: 'Smith' })).statusCode).toBe(404);
    }
    expect((await get(admin, `${v1}/patient-access?patientId=${harrowPatient}&${YEAR}`)).statusCode).toBe(404);
  });

  it('finds a patient by name or date of birth in the body, keeping the search text out of the trail', async () => {
    const [patient] = await rows(sql`select last_name, dob::text as dob from patients where id = ${patientId}`);
    const byName = (await post(admin, `${v1}/patient-search`, { search: String(patient?.last_name) })).json();
    expect(byName.records.map((r: { id: string }) => r.id)).toContain(patientId);
    const byDob = (await post(admin, `${v1}/patient-search`, { search: String(patient?.dob) })).json();
    expect(byDob.records.map((r: { id: string }) => r.id)).toContain(patientId);
    const logged = await rows(sql`select details::text as d from audit_log where action = 'audit.patient-search'`);
    expect(logged.length).toBeGreaterThan(0);
    for (const row of logged) expect(String(row.d)).not.toContain(String(patient?.last_name));
    expect(JSON.stringify(t.logs)).not.toContain(String(patient?.last_name));
  });
});

describe('user activity report', () => {
  it("lists a person's actions with the patients named, and refuses a reviewer's own", async () => {
    const res = await get(admin, `${v1}/user-activity?userId=${staff.userID}&${YEAR}`);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report.user).toMatchObject({ id: staff.userID, role: 'STAFF' });
    const read = report.records.find((r: { action: string }) => r.action === 'patients.read');
    expect(read.patients).toEqual([{ id: patientId, name: expect.any(String) }]);
    const own = await get(admin, `${v1}/user-activity?userId=${admin.userID}&${YEAR}`);
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe('Another privacy officer reviews your own activity.');
  });
});

describe('exports', () => {
  it('exports CSV whose cells a spreadsheet cannot run', async () => {
    await t.database.db.execute(
      sql`update users set display_name = '=HYPERLINK("http://x.example","Lee")' where id = ${staff.userID}`,
    );
    const res = await get(admin, `${v1}/patient-access/export?patientId=${patientId}&${YEAR}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="patient-access-${FROM}-${TO}.csv"`);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('When (UTC),Who,Role,Practice,What,Outcome,Path,IP address,Request id');
    expect(res.body).toContain(csvCell('=HYPERLINK("http://x.example","Lee")'));
    expect(res.body).toContain(`"'=HYPERLINK(""http://x.example"",""Lee"")"`);
    expect(res.body).not.toMatch(/(^|,)=HYPERLINK/m);
    await t.database.db.execute(sql`update users set display_name = 'Lee Staff' where id = ${staff.userID}`);
  });

  it('exports a FHIR Bundle of AuditEvents that validates against R4', async () => {
    const res = await get(admin, `${v1}/user-activity/export?userId=${staff.userID}&${YEAR}&format=fhir`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/fhir+json');
    const bundle = res.json();
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    expect(bundle.entry.length).toBeGreaterThan(0);
    validated(bundle, 'Bundle');
    for (const { resource } of bundle.entry) validated(resource, 'AuditEvent');
    const read = bundle.entry.find(
      (e: { resource: { subtype: { code: string }[] } }) => e.resource.subtype[0]?.code === 'patients.read',
    );
    expect(read.resource).toMatchObject({
      action: 'R',
      outcome: '0',
      agent: [{ who: { identifier: { value: staff.userID } }, requestor: true }],
      entity: expect.arrayContaining([expect.objectContaining({ what: { reference: `Patient/${patientId}` } })]),
    });
  });

  it('refuses an export past 10,000 rows with what to do, and writes nothing for it', async () => {
    await t.database.db.execute(sql`insert into audit_log (actor_user_id, action, entity_type, entity_id, created_at)
      select ${staff.userID}, 'patients.read', 'patient', ${patientId}, timestamptz '2026-05-01 12:00Z' + n * interval '1 second'
      from generate_series(1, 10001) n`);
    const before = (await rows(sql`select count(*)::int as n from audit_log where action = 'audit.export'`))[0]?.n;
    const res = await get(admin, `${v1}/patient-access/export?patientId=${patientId}&from=2026-05-01&to=2026-05-01&format=csv`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('This report has 10,001 rows; narrow the dates to export at most 10,000.');
    expect((await rows(sql`select count(*)::int as n from audit_log where action = 'audit.export'`))[0]?.n).toBe(before);
  });
});

describe('support window review', () => {
  it('lists each window with its reason, length and reads; marks it reviewed once, with a note', async () => {
    const list = (await get(admin, `${v1}/support-windows?${YEAR}&status=open`)).json();
    const window = list.records.find((r: { user: { id: string } }) => r.user.id === support.userID);
    expect(window).toMatchObject({ reason: 'Helping the practice find a lost refill request.', review: null });
    expect(window.reads).toBeGreaterThanOrEqual(1);
    expect(window.patients).toBeGreaterThanOrEqual(1);
    const review = await post(admin, `${v1}/support-windows/${window.id}/review`, { note: 'Confirmed with the practice.' });
    expect(review.statusCode).toBe(200);
    const again = await post(admin, `${v1}/support-windows/${window.id}/review`, { note: 'Twice.' });
    expect(again.statusCode).toBe(409);
    const reviewed = (await get(admin, `${v1}/support-windows?${YEAR}&status=reviewed`)).json();
    expect(reviewed.records.find((r: { id: string }) => r.id === window.id)?.review).toMatchObject({
      reviewedBy: 'Avery Admin',
      note: 'Confirmed with the practice.',
    });
  });
});

describe('unusual access', () => {
  it('finds reads after hours, many patients at once and records read without open work; each cleared once', async () => {
    // Saturday 2026-11-21, 23:30 in New York: after hours.
    await t.database.db.execute(sql`insert into audit_log (actor_user_id, action, entity_type, entity_id, created_at)
      values (${staff.userID}, 'patients.read', 'patient', ${patientId}, timestamptz '2026-11-22 04:30Z')`);
    // Twenty different patients in five minutes (Tuesday morning).
    const many = [patientId, ...otherPatients].slice(0, UNUSUAL_ACCESS_RULES.manyPatients.patients);
    expect(many).toHaveLength(20);
    for (const [i, id] of many.entries()) {
      await t.database.db.execute(sql`insert into audit_log (actor_user_id, action, entity_type, entity_id, created_at)
        values (${staff.userID}, 'patients.read', 'patient', ${id}, timestamptz '2026-11-17 14:00Z' + ${i} * interval '10 seconds')`);
    }
    const res = await get(admin, `${v1}/unusual-access?from=2026-11-15&to=2026-11-30&status=open`);
    expect(res.statusCode).toBe(200);
    const findings = res.json().records as {
      key: string;
      rule: string;
      user: { id: string };
      patients: number;
      patient: unknown;
    }[];
    const mine = findings.filter((f) => f.user.id === staff.userID);
    expect(mine.find((f) => f.rule === 'afterHours')?.key).toBe(`afterHours:${staff.userID}:2026-11-21`);
    expect(mine.find((f) => f.rule === 'manyPatients')).toMatchObject({ patients: 20 });
    const noWork = mine.filter((f) => f.rule === 'noOpenWork');
    expect(noWork.length).toBeGreaterThan(0);
    expect(noWork[0]?.patient).toMatchObject({ id: expect.any(String), name: expect.any(String) });

    const key = `afterHours:${staff.userID}:2026-11-21`;
    expect((await post(admin, `${v1}/findings/review`, { key, note: 'On call that night.' })).statusCode).toBe(200);
    expect((await post(admin, `${v1}/findings/review`, { key, note: 'Again.' })).statusCode).toBe(409);
    const open = (await get(admin, `${v1}/unusual-access?from=2026-11-15&to=2026-11-30&status=open`)).json().records;
    expect(open.some((f: { key: string }) => f.key === key)).toBe(false);
    // A key naming nobody of the tenant, or not a key at all, is not found.
    expect((await post(admin, `${v1}/findings/review`, { key: 'afterHours:nobody', note: 'Not a key.' })).statusCode).toBe(404);
  });
});

describe('unusual access, bounded', () => {
  it('returns the newest 200 findings of a rule and counts them all', async () => {
    // Thirty new patients (no prescription: no open work) read by the staff member on eight weekday middays.
    const office = String((await rows(sql`select md_office_id from patients where id = ${patientId}`))[0]?.md_office_id);
    await t.database.db.execute(sql`insert into patients (md_office_id, first_name, last_name, dob)
      select ${office}, 'Bound', 'Patient ' || g, date '1970-01-01' + g from generate_series(1, 30) g`);
    await t.database.db.execute(sql`insert into audit_log (actor_user_id, action, entity_type, entity_id, created_at)
      select ${staff.userID}, 'patients.read', 'patient', p.id::text, timestamptz '2026-09-01 16:00Z' + d * interval '1 day'
      from patients p cross join generate_series(0, 9) d
      where p.first_name = 'Bound' and extract(isodow from timestamptz '2026-09-01 16:00Z' + d * interval '1 day') < 6`);
    const res = await get(admin, `${v1}/unusual-access?from=2026-09-01&to=2026-09-14&status=open&rule=noOpenWork`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.perRule).toBe(200);
    expect(body.totals.noOpenWork).toBe(240);
    expect(body.records).toHaveLength(200);
    // Newest first: the last day's reads lead.
    expect(body.records[0].from.slice(0, 10)).toBe('2026-09-10');
    expect(body.records.every((f: { rule: string }) => f.rule === 'noOpenWork')).toBe(true);
  });
});

describe('privacy officers', () => {
  it('lets an officer make another admin one, never themselves; then nobody clears their own finding', async () => {
    const list = (await get(admin, `${v1}/privacy-officers`)).json().records;
    expect(list.find((r: { id: string }) => r.id === admin.userID)?.privacyOfficer).toBe(true);
    expect(list.find((r: { id: string }) => r.id === support.userID)?.privacyOfficer).toBe(false);
    const self = await injectAs(t.app, admin, {
      method: 'PUT',
      url: `${v1}/privacy-officers/${admin.userID}`,
      payload: { privacyOfficer: false },
    });
    expect(self.statusCode).toBe(403);
    const notAdmin = await injectAs(t.app, admin, {
      method: 'PUT',
      url: `${v1}/privacy-officers/${staff.userID}`,
      payload: { privacyOfficer: true },
    });
    expect(notAdmin.statusCode).toBe(400);
    const grant = await injectAs(t.app, admin, {
      method: 'PUT',
      url: `${v1}/privacy-officers/${support.userID}`,
      payload: { privacyOfficer: true },
    });
    expect(grant.statusCode).toBe(200);
    // The new officer reads reports; their own support window is for another officer to review.
    expect((await get(support, `${v1}/patient-access?patientId=${patientId}&${YEAR}`)).statusCode).toBe(200);
    const windows = (await get(support, `${v1}/support-windows?${YEAR}&status=all`)).json().records;
    const own = windows.find((r: { user: { id: string } }) => r.user.id === support.userID);
    const refused = await post(support, `${v1}/support-windows/${own.id}/review`, { note: 'My own window.' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Another privacy officer reviews your own access.');
  });
});

describe('checking the seals', () => {
  it('reports the chain whole, then the first changed row', async () => {
    await t.app.auditChain.seal({ marginSeconds: 0, maxRows: 50_000 });
    const ok = (await post(admin, `${v1}/verify`)).json();
    expect(ok).toMatchObject({ ok: true, problem: null });
    expect(ok.sealedRows).toBeGreaterThan(10_000);
    const target = Number((await rows(sql`select min(id) as id from audit_log where action = 'patients.read'`))[0]?.id);
    await t.database.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await t.database.db.execute(sql`update audit_log set ip = '203.0.113.7' where id = ${target}`);
    await t.database.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    const broken = (await post(admin, `${v1}/verify`)).json();
    expect(broken).toMatchObject({ ok: false, problem: { kind: 'changed', rowId: target } });
    expect((await post(staff, `${v1}/verify`)).statusCode).toBe(404);
  });
});
