/**
 * Covering prescribers (issue 23, decision 0041): a practice chooses who signs — any of its prescribers (the default)
 * or each prescriber and whoever covers for them — and names coverages (who, for whom, from when until when). The
 * server refuses a signature the policy does not allow (403, nothing written), before and after a coverage, and a
 * signature of something prepared, and a standing rule over others' requests; staff never change any of it.
 */
import { apiPaths, COVERAGE_MESSAGES, type CoverageResponse, generateRequestId, type Tokens } from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let morgan: Tokens;
let second: Tokens;
let lee: Tokens;
let practiceId: string;
let morganId: string;
let secondId: string;
let otherPracticePrescriber: string;
/** Refill requests of Morgan's own patients, not controlled: one per step that decides. */
let morgansRequests: string[];

const db = () => t.database.db;
const base = (who: Tokens) => `/api/mdo/v1/users/${who.userID}/coverage`;
const call = (who: Tokens, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  injectAs(t.app, who, {
    method,
    url,
    headers: { 'x-request-id': generateRequestId() },
    ...(payload === undefined ? {} : { payload }),
  });
const deny = (who: Tokens, id: string) =>
  call(who, 'POST', apiPaths.refillDenied(id), { reason: 'NEED_OFFICE_VISIT', senderName: 'Dr. Test' });
const versionOf = async (id: string) =>
  (await db().select({ v: s.prescriptions.version }).from(s.prescriptions).where(eq(s.prescriptions.id, id)))[0]?.v;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();
const coverage = (extra: Record<string, unknown> = {}) => ({
  practiceId,
  coveringPrescriberId: secondId,
  coveredPrescriberId: morganId,
  startsAt: day(0),
  endsAt: day(2),
  ...extra,
});
const take = () => {
  const id = morgansRequests.shift();
  if (!id) throw new Error('the test ran out of refill requests');
  return id;
};

beforeAll(async () => {
  t = await buildTestApp();
  const [row] = await db()
    .select({ officeId: s.users.mdOfficeId, staffId: s.users.mdStaffId })
    .from(s.users)
    .where(eq(s.users.email, 'dr.morgan@demo.hcp'));
  practiceId = row?.officeId as string;
  morganId = row?.staffId as string;
  // A colleague of Morgan's practice with an account of their own (the demo has one prescriber account per practice).
  const colleague = (await db().execute(sql`select d.id from md_staff d join office_members m on m.md_staff_id = d.id
    where m.md_office_id = ${practiceId}::uuid and d.role in ('MD', 'DO', 'PA', 'NP', 'ARNP') and d.id <> ${morganId}::uuid
    order by d.id limit 1`)) as unknown as { rows: { id: string }[] };
  secondId = colleague.rows[0]?.id as string;
  await db().execute(sql`insert into users (tenant_id, email, role, user_type, display_name, password_hash, md_office_id, md_staff_id)
    select tenant_id, 'dr.second@demo.hcp', role, user_type, 'Dr. Sam Second', password_hash, md_office_id, ${secondId}::uuid
    from users where email = 'dr.morgan@demo.hcp'`);
  const other = (await db().execute(sql`select d.id from md_staff d join office_members m on m.md_staff_id = d.id
    join users u on u.md_office_id = m.md_office_id and u.email = 'dr.patel@demo.hcp'
    where d.role <> 'STAFF' limit 1`)) as unknown as { rows: { id: string }[] };
  otherPracticePrescriber = other.rows[0]?.id as string;
  // Every refill request of the practice is Morgan's for this test, so each step has one to decide.
  const requests = (await db().execute(sql`update prescriptions rx set prescriber_id = ${morganId}::uuid
    where rx.md_office_id = ${practiceId}::uuid and rx.needs_refill_auth and rx.refill_postponed_until is null
      and not exists (select 1 from drug_products dp where dp.ndc in (rx.prescribed_ndc, rx.dispensed_ndc) and dp.is_controlled)
    returning rx.id`)) as unknown as { rows: { id: string }[] };
  morgansRequests = requests.rows.map((r) => r.id);
  expect(morgansRequests.length).toBeGreaterThanOrEqual(6);
  await db().update(s.users).set({ mfaEnabled: false }).where(eq(s.users.email, 'dr.morgan@demo.hcp'));
  [morgan, second, lee] = await Promise.all([
    signIn(t.app, 'dr.morgan@demo.hcp'),
    signIn(t.app, 'dr.second@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
  ]);
});
afterAll(() => t.close());

describe('covering prescribers', () => {
  it('lists the practice with its prescribers and policy; prescribers manage it, staff read it', async () => {
    const asMorgan = (await call(morgan, 'GET', base(morgan))).json() as CoverageResponse;
    const practice = asMorgan.practices.find((p) => p.practiceId === practiceId);
    expect(practice).toMatchObject({ policy: 'anyPrescriber', mayManage: true, coverages: [] });
    expect(practice?.prescribers.map((p) => p.id)).toEqual(expect.arrayContaining([morganId, secondId]));
    const asLee = (await call(lee, 'GET', base(lee))).json() as CoverageResponse;
    expect(asLee.practices.find((p) => p.practiceId === practiceId)?.mayManage).toBe(false);
  });

  it('by default any prescriber of the practice signs a colleague’s request', async () => {
    const res = await deny(second, take());
    expect(res.statusCode, res.body).toBe(200);
  });

  it('only prescribers change the policy; the change is audited', async () => {
    const byStaff = await call(lee, 'PUT', `${base(lee)}/policy`, { practiceId, policy: 'ownOrCovering' });
    expect(byStaff.statusCode).toBe(403);
    expect(byStaff.json().error.message).toBe(COVERAGE_MESSAGES.prescriberOnly);
    const res = await call(morgan, 'PUT', `${base(morgan)}/policy`, { practiceId, policy: 'ownOrCovering' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().policy).toBe('ownOrCovering');
    const audits = await db()
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'signing-policy.updated'), eq(s.auditLog.entityId, practiceId)));
    expect(audits).toHaveLength(1);
    const details = (await call(second, 'GET', `/api/mdo/v1/users/${second.userID}/mdo-user-details`)).json();
    expect(details.signing).toEqual({ ownOrCoveringPracticeIds: [practiceId], covers: [] });
  });

  it('then a colleague’s signature is refused and nothing changes; preparing it is still open to them', async () => {
    const id = take();
    const before = await versionOf(id);
    const res = await deny(second, id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(COVERAGE_MESSAGES.notYours);
    expect(await versionOf(id)).toBe(before);
    const prepared = await call(second, 'PUT', `/api/mdo/v1/prescriptions/${id}/prepared-decision`, {
      action: 'refillDenied',
      reason: 'NEED_OFFICE_VISIT',
    });
    expect(prepared.statusCode, prepared.body).toBe(200);
    // Signing what was prepared is the same signature: refused for this item, with the reason.
    const signed = await call(second, 'POST', '/api/mdo/v1/prepared-decisions/sign', {
      items: [{ id }],
      senderName: 'Dr. Sam Second',
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ done: 0, refused: 1, results: [{ id, reason: COVERAGE_MESSAGES.notYours }] });
    // The prescriber whose request it is signs it.
    const own = await call(morgan, 'POST', '/api/mdo/v1/prepared-decisions/sign', { items: [{ id }], senderName: 'Dr. Morgan' });
    expect(own.json()).toMatchObject({ done: 1, refused: 0 });
  });

  it('refuses coverages that cannot be: self, backwards, over, too long, outside the practice, by staff', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ coveringPrescriberId: morganId }, 'body.coveringPrescriberId', COVERAGE_MESSAGES.self],
      [{ startsAt: day(3), endsAt: day(2) }, 'body.endsAt', COVERAGE_MESSAGES.endsBeforeStart],
      [{ startsAt: day(-3), endsAt: day(-1) }, 'body.endsAt', COVERAGE_MESSAGES.endsInPast],
      [{ endsAt: day(200) }, 'body.endsAt', COVERAGE_MESSAGES.tooLong],
    ];
    for (const [extra, path, message] of cases) {
      const res = await call(morgan, 'POST', base(morgan), coverage(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error.details).toEqual([{ path, message }]);
    }
    // A prescriber of another practice is not one of this practice's: the pair is refused as out of reach (issue 42).
    const outside = await call(morgan, 'POST', base(morgan), coverage({ coveringPrescriberId: otherPracticePrescriber }));
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error.message).toBe('HCP or staff member not found.');
    expect((await call(lee, 'POST', base(lee), coverage())).statusCode).toBe(403);
    const otherPractice = await call(
      morgan,
      'POST',
      base(morgan),
      coverage({ practiceId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(otherPractice.statusCode).toBe(404);
    expect(await db().select().from(s.coverages)).toEqual([]);
  });

  it('a coverage lets the colleague sign while it lasts; a coming one does not yet; ending it takes it back', async () => {
    const later = await call(morgan, 'POST', base(morgan), coverage({ startsAt: day(1), endsAt: day(3) }));
    expect(later.statusCode, later.body).toBe(201);
    expect((await deny(second, take())).statusCode).toBe(403);

    const res = await call(morgan, 'POST', base(morgan), coverage());
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      coveringPrescriber: { id: secondId },
      coveredPrescriber: { id: morganId },
      createdByName: expect.any(String),
    });
    const listed = (await call(lee, 'GET', base(lee))).json() as CoverageResponse;
    expect(listed.practices.find((p) => p.practiceId === practiceId)?.coverages.map((c) => c.id)).toEqual([
      created.id,
      later.json().id,
    ]);
    const signing = (await call(second, 'GET', `/api/mdo/v1/users/${second.userID}/mdo-user-details`)).json().signing;
    expect(signing.covers).toHaveLength(2);

    const covered = await deny(second, take());
    expect(covered.statusCode, covered.body).toBe(200);
    // Morgan does not cover the colleague: the coverage runs one way.
    await db().execute(sql`update prescriptions set prescriber_id = ${secondId}::uuid where id = ${morgansRequests[0]}::uuid`);
    expect((await deny(morgan, take())).statusCode).toBe(403);

    expect((await call(lee, 'DELETE', `${base(lee)}/${created.id}`)).statusCode).toBe(403);
    const ended = await call(morgan, 'DELETE', `${base(morgan)}/${created.id}`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await deny(second, take())).statusCode).toBe(403);
    expect((await call(morgan, 'DELETE', `${base(morgan)}/${created.id}`)).statusCode).toBe(404);
    const [kept] = await db().select().from(s.coverages).where(eq(s.coverages.id, created.id));
    expect(kept?.endedAt).not.toBeNull();
  });

  it('a standing rule answers only the requests of prescribers its author signs for', async () => {
    const rule = { name: 'Nobody gets it', practiceId, action: 'discontinued', drugName: 'Nonexistium' };
    const wide = await call(second, 'POST', `/api/mdo/v1/users/${second.userID}/standing-rules`, rule);
    expect(wide.statusCode).toBe(400);
    expect(wide.json().error.details).toEqual([{ path: 'body.rule.prescriberId', message: COVERAGE_MESSAGES.ruleNotYours }]);
    const own = await call(second, 'POST', `/api/mdo/v1/users/${second.userID}/standing-rules`, {
      ...rule,
      prescriberId: secondId,
    });
    expect(own.statusCode, own.body).toBe(201);
  });
});
