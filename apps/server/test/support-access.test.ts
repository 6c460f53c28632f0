/**
 * Minimum necessary access (issue 18, decision 0020): the provider's users see counts per practice and no
 * patient; a support-access window shows one practice's patients, read-only, for at most an hour, audited and
 * listed for the practice; staff prepare but do not sign; patient answers are never cached.
 */
import {
  ACTION_NEEDED_QUERY_TYPES,
  CLINICAL_REFUSALS,
  countActionNeeded,
  flattenActionNeeded,
  generateRequestId,
  type PracticeWorkloadResponse,
  type SupportAccessGrant,
  type Tokens,
} from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';

let t: TestApp;
let admin: Tokens;
let sales: Tokens;
let morgan: Tokens;
let lee: Tokens;
let morganOffice: string;
let otherOffice: string;

const v1 = '/api/mdo/v1';
const as = (who: Tokens, options: InjectOptions) => injectAs(t.app, who, options);
const get = (who: Tokens, url: string) => as(who, { method: 'GET', url });
const actionNeeded = async (who: Tokens) => {
  const res = await get(who, `/api/mdo/v2/users/${who.userID}/action-needed?actionType=${ACTION_NEEDED_QUERY_TYPES.all}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { doctors: { patients: { id: string; prescriptions: { id: string }[] }[] }[] };
};
const open = (who: Tokens, body: Record<string, unknown>, requestId = generateRequestId()) =>
  as(who, {
    method: 'POST',
    url: `${v1}/users/${who.userID}/support-access`,
    payload: body,
    headers: { 'x-request-id': requestId },
  });
const patientIdsOf = (answer: Awaited<ReturnType<typeof actionNeeded>>) =>
  answer.doctors.flatMap((d) => d.patients.map((p) => p.id));

beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  [admin, sales, morgan, lee] = await Promise.all([
    signIn(t.app, 'admin@demo.hcp'),
    signIn(t.app, 'sales@demo.hcp'),
    signIn(t.app, 'dr.morgan@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
  ]);
  const officeOf = async (email: string) =>
    (await t.database.db.select({ id: s.users.mdOfficeId }).from(s.users).where(eq(s.users.email, email)))[0]?.id as string;
  morganOffice = await officeOf('dr.morgan@demo.hcp');
  otherOffice = await officeOf('dr.patel@demo.hcp');
});
afterAll(() => t.close());

describe('the provider without support access', () => {
  it('sees no patient: empty lists, 404 on a patient, a prescription or a thread', async () => {
    const morganList = await actionNeeded(morgan);
    const patientId = patientIdsOf(morganList)[0] as string;
    const rxId = morganList.doctors[0]?.patients[0]?.prescriptions[0]?.id as string;
    for (const who of [admin, sales]) {
      expect((await actionNeeded(who)).doctors).toEqual([]);
      const search = await get(who, `${v1}/users/${who.userID}/patients-search?searchText=smith`);
      expect(search.statusCode).toBe(200);
      expect(search.json().records).toHaveLength(0);
      const rxList = await get(who, `${v1}/users/${who.userID}/rx-list?startdate=2026-08-01&enddate=2026-11-20`);
      expect(rxList.json()).toEqual([]);
      expect((await get(who, `${v1}/users/${who.userID}/patients/${patientId}`)).statusCode).toBe(404);
      expect((await get(who, `${v1}/prescriptions/${rxId}/events`)).statusCode).toBe(404);
      expect((await get(who, `${v1}/patients/${patientId}/all-rx-comment`)).statusCode).toBe(404);
      const comments = await get(who, `/api/mdo/v2/users/${who.userID}/doctor-list-search?newComments=true`);
      expect(comments.json().total).toBe(0);
    }
  });

  it('sees counts per practice that match what the practice itself sees, and nothing about patients', async () => {
    const res = await get(admin, `${v1}/users/${admin.userID}/practice-workload?limit=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as PracticeWorkloadResponse;
    const tenantOffices = await t.database.db.execute(
      sql`select count(*)::int as n from md_offices o join users u on u.tenant_id = o.tenant_id
        where u.id = ${admin.userID} and o.deleted_at is null`,
    );
    expect(body.total).toBe((tenantOffices as unknown as { rows: { n: number }[] }).rows[0]?.n);
    // Busiest first.
    const totals = body.records.map((r) => r.counts.total);
    expect([...totals].sort((a, b) => b - a)).toEqual(totals);
    // Morgan Family Medicine's counts equal the contract's counts of what its own users see there.
    const morganRow = body.records.find((r) => r.mdOfficeId === morganOffice);
    const entries = flattenActionNeeded((await actionNeeded(lee)).doctors as never);
    const { fetched: _fetched, ...counts } = countActionNeeded(entries);
    expect(morganRow?.counts).toEqual(counts);
    // Counts only: no name, birth date or drug anywhere in the answer.
    const text = JSON.stringify(body);
    const [patient] = await t.database.db.select().from(s.patients).where(eq(s.patients.mdOfficeId, morganOffice)).limit(1);
    expect(text).not.toContain(patient?.lastName as string);
    expect(Object.keys(body.records[0] ?? {}).sort()).toEqual([
      'city',
      'counts',
      'mdOfficeId',
      'name',
      'state',
      'unreadComments',
    ]);
  });

  it('is 404 for office users, and the search narrows by practice name', async () => {
    expect((await get(morgan, `${v1}/users/${morgan.userID}/practice-workload`)).statusCode).toBe(404);
    const res = await get(admin, `${v1}/users/${admin.userID}/practice-workload?searchText=Morgan`);
    expect(res.json().records.map((r: { name: string }) => r.name)).toEqual(['Morgan Family Medicine']);
    expect(res.json().total).toBe(1);
  });
});

describe('support access', () => {
  it('refuses a missing reason, too long a window and another tenant’s practice, writing nothing', async () => {
    const before = await t.database.db.select().from(s.supportAccessGrants);
    const noReason = await open(admin, { mdOfficeId: morganOffice, reason: ' ', minutes: 30 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.details.map((d: { path: string }) => d.path)).toEqual(['body.reason']);
    const tooLong = await open(admin, { mdOfficeId: morganOffice, reason: 'Helping the office with a refill.', minutes: 61 });
    expect(tooLong.statusCode).toBe(400);
    const [harrowOffice] = await t.database.db
      .select({ id: s.mdOffices.id })
      .from(s.mdOffices)
      .innerJoin(s.tenants, eq(s.tenants.id, s.mdOffices.tenantId))
      .where(eq(s.tenants.key, 'harrow'))
      .limit(1);
    const foreign = await open(admin, { mdOfficeId: harrowOffice?.id, reason: 'Helping the office with a refill.' });
    expect(foreign.statusCode).toBe(404);
    expect(await t.database.db.select().from(s.supportAccessGrants)).toEqual(before);
    // Office users do not have it at all.
    expect((await open(morgan, { mdOfficeId: morganOffice, reason: 'Helping the office with a refill.' })).statusCode).toBe(404);
  });

  it('shows one practice’s patients read-only for the window, then nothing again; audited; listed for the practice', async () => {
    const requestId = generateRequestId();
    const opened = await open(
      admin,
      { mdOfficeId: morganOffice, reason: 'Office called: refills missing.', minutes: 30 },
      requestId,
    );
    expect(opened.statusCode).toBe(201);
    const grant = opened.json() as SupportAccessGrant;
    expect(grant).toMatchObject({
      mdOfficeId: morganOffice,
      practiceName: 'Morgan Family Medicine',
      active: true,
      endedAt: null,
    });
    const minutes = (Date.parse(grant.expiresAt) - Date.parse(grant.startedAt)) / 60_000;
    expect(minutes).toBe(30);
    // A repeat of the same request opens nothing twice.
    const replay = await open(
      admin,
      { mdOfficeId: morganOffice, reason: 'Office called: refills missing.', minutes: 30 },
      requestId,
    );
    expect(replay.json().id).toBe(grant.id);
    const state = await get(admin, `${v1}/users/${admin.userID}/support-access`);
    expect(state.json().active.id).toBe(grant.id);

    // The practice's items, exactly what its own staff sees.
    const seen = patientIdsOf(await actionNeeded(admin));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.sort()).toEqual(patientIdsOf(await actionNeeded(lee)).sort());
    // Read-only: a refill authorisation and a comment are refused with the reason, and nothing changes.
    const [refill] = await t.database.db
      .select()
      .from(s.prescriptions)
      .where(and(eq(s.prescriptions.mdOfficeId, morganOffice), eq(s.prescriptions.needsRefillAuth, true)))
      .limit(1);
    const act = await as(admin, {
      method: 'POST',
      url: `${v1}/prescriptions/${refill?.id}/refills-postponed`,
      payload: { refillPostponedToDate: '2027-01-15', senderName: 'Admin' },
    });
    expect(act.statusCode).toBe(403);
    expect(act.json().error.message).toBe(CLINICAL_REFUSALS.readOnly);
    const [after] = await t.database.db
      .select()
      .from(s.prescriptions)
      .where(eq(s.prescriptions.id, refill?.id as string));
    expect(after).toEqual(refill);
    const reply = await as(admin, {
      method: 'POST',
      url: `${v1}/users/${admin.userID}/rx-comment`,
      payload: { patientId: seen[0], comment: 'Support reply.' },
    });
    expect(reply.statusCode).toBe(403);
    // Another practice stays out of reach.
    const [otherRx] = await t.database.db
      .select()
      .from(s.prescriptions)
      .where(eq(s.prescriptions.mdOfficeId, otherOffice))
      .limit(1);
    expect((await get(admin, `${v1}/prescriptions/${otherRx?.id}/events`)).statusCode).toBe(404);

    // The practice's own users see who opened it and why; audit rows name the opener.
    const log = await get(lee, `${v1}/md-offices/${morganOffice}/support-access`);
    expect(log.statusCode).toBe(200);
    expect(log.json().records[0]).toMatchObject({
      id: grant.id,
      userName: expect.any(String),
      reason: 'Office called: refills missing.',
    });
    expect((await get(lee, `${v1}/md-offices/${otherOffice}/support-access`)).statusCode).toBe(404);
    const audits = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.actorUserId, admin.userID), eq(s.auditLog.action, 'support-access.opened')));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.entityId).toBe(morganOffice);
    expect(JSON.stringify(audits[0]?.details)).not.toContain('refills missing');

    // The window's end (the database clock decides; moved here by rewriting the row) closes it.
    await t.database.db.execute(
      sql`update support_access_grants set expires_at = statement_timestamp() - interval '1 second' where id = ${grant.id}`,
    );
    expect((await actionNeeded(admin)).doctors).toEqual([]);
    expect((await get(admin, `${v1}/users/${admin.userID}/support-access`)).json().active).toBeNull();
  });

  it('ends on request, one practice at a time; a sales user opens only their assigned practices', async () => {
    const first = (
      await open(sales, { mdOfficeId: morganOffice, reason: 'Checking a fax problem.' })
    ).json() as SupportAccessGrant;
    const second = await open(sales, { mdOfficeId: otherOffice, reason: 'Checking a fax problem too.' });
    expect(second.statusCode).toBe(201);
    const rows = await t.database.db.select().from(s.supportAccessGrants).where(eq(s.supportAccessGrants.id, first.id));
    expect(rows[0]?.endedAt).not.toBeNull();
    const ended = await as(sales, { method: 'DELETE', url: `${v1}/users/${sales.userID}/support-access` });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ active: null });
    expect((await actionNeeded(sales)).doctors).toEqual([]);
    await t.database.db.update(s.mdOffices).set({ salesUserId: null }).where(eq(s.mdOffices.id, otherOffice));
    expect((await open(sales, { mdOfficeId: otherOffice, reason: 'Checking a fax problem.' })).statusCode).toBe(404);
  });
});

describe('prepare, not sign', () => {
  it('lets office staff postpone a refill but not authorise or deny it (403, nothing written)', async () => {
    const [rx] = await t.database.db
      .select()
      .from(s.prescriptions)
      .where(and(eq(s.prescriptions.mdOfficeId, morganOffice), eq(s.prescriptions.needsRefillAuth, true)))
      .limit(1);
    const auth = await as(lee, {
      method: 'POST',
      url: `${v1}/prescriptions/${rx?.id}/refills-authorized/fax`,
      payload: { refills: 1, sig: 'Take 1 daily', senderName: 'Lee' },
    });
    expect(auth.statusCode).toBe(403);
    expect(auth.json().error.message).toBe(CLINICAL_REFUSALS.needsPrescriber);
    const outbox = await t.database.db
      .select()
      .from(s.outbox)
      .where(eq(s.outbox.prescriptionId, rx?.id as string));
    expect(outbox).toHaveLength(0);
    const postponed = await as(lee, {
      method: 'POST',
      url: `${v1}/prescriptions/${rx?.id}/refills-postponed`,
      payload: { refillPostponedToDate: '2027-01-15', senderName: 'Lee' },
    });
    expect(postponed.statusCode).toBe(200);
  });
});

describe('caching', () => {
  it('answers patient data with Cache-Control: no-store', async () => {
    const urls = [
      `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=${ACTION_NEEDED_QUERY_TYPES.all}`,
      `${v1}/users/${morgan.userID}/patients-search?searchText=smith`,
      `${v1}/users/${morgan.userID}/rx-list?startdate=2026-11-01&enddate=2026-11-20`,
      `${v1}/users/${morgan.userID}/mdo-user-details`,
    ];
    for (const url of urls) expect((await get(morgan, url)).headers['cache-control'], url).toBe('no-store');
    const failed = await get(morgan, `${v1}/users/${morgan.userID}/patients/00000000-0000-4000-8000-000000000000`);
    expect(failed.headers['cache-control']).toBe('no-store');
  });
});
