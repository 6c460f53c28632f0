/**
 * PA renewal reminders (issue 23): from 60 days before a PA approval's expiry the practice gets a reminder item on
 * Action Needed, once per expiry; dismissing it ends it; a new expiry starts again; open PA work is never covered
 * over. The clock is the round's own date (injectable), not the machine's.
 */
import { EVENT_TYPES, generateRequestId, PRIOR_AUTH_RENEWAL_DUE } from '@hcp/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { raiseDueRenewals } from '../src/features/action-needed/pa-renewals.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let morgan: Awaited<ReturnType<typeof signIn>>;
let quiet: string[];
const db = () => t.database.db;

async function priorAuthItems() {
  const res = await injectAs(t.app, morgan, {
    method: 'GET',
    url: `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_PRIOR_AUTH`,
  });
  expect(res.statusCode).toBe(200);
  type Rx = { id: string; priorAuthStatus: string | null };
  return (res.json().doctors as { patients: { prescriptions: Rx[] }[] }[]).flatMap((d) =>
    d.patients.flatMap((p) => p.prescriptions),
  );
}
const rowOf = async (id: string) => (await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, id)))[0];

beforeAll(async () => {
  t = await buildTestApp();
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  // No other expiry in the way: the demo's own are cleared, three quiet prescriptions of Dr. Morgan's practice used.
  await db().update(s.prescriptions).set({ priorAuthExpiresOn: null });
  const rows = await db()
    .select({ id: s.prescriptions.id })
    .from(s.prescriptions)
    .innerJoin(s.users, eq(s.users.mdOfficeId, s.prescriptions.mdOfficeId))
    .where(
      and(
        eq(s.users.email, 'dr.morgan@demo.hcp'),
        isNull(s.prescriptions.priorAuthStatus),
        eq(s.prescriptions.needsRefillAuth, false),
        eq(s.prescriptions.phoneException, false),
      ),
    )
    .orderBy(s.prescriptions.id)
    .limit(3);
  quiet = rows.map((r) => r.id);
  expect(quiet).toHaveLength(3);
});
afterAll(() => t.close());

describe('PA renewal reminders', () => {
  it('appear on day -60, once, on the practice’s Action Needed, and run in the cluster’s housekeeping round', async () => {
    const [id] = quiet as [string];
    await db().update(s.prescriptions).set({ priorAuthExpiresOn: '2027-03-01' }).where(eq(s.prescriptions.id, id));

    expect(await raiseDueRenewals(db(), '2026-12-30')).toEqual({ raised: 0 });
    expect((await rowOf(id))?.priorAuthStatus).toBeNull();

    // Day -60 (2027-03-01 minus 60 days is 2026-12-31): the round of the cluster raises it.
    expect((await t.app.housekeeping.runOnce(new Date(2026, 11, 31, 9, 0))).cluster).toBe(true);
    const raised = await rowOf(id);
    expect(raised).toMatchObject({ priorAuthStatus: PRIOR_AUTH_RENEWAL_DUE, priorAuthRenewalRemindedFor: '2027-03-01' });
    const events = await db().select().from(s.prescriptionEvents).where(eq(s.prescriptionEvents.prescriptionId, id));
    expect(events.filter((e) => e.type === EVENT_TYPES.priorAuthRenewalDue).map((e) => e.data)).toEqual([
      { expiresOn: '2027-03-01' },
    ]);
    expect((await priorAuthItems()).map((r) => r.id)).toContain(id);
    const timeline = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${id}/events` });
    expect(JSON.stringify(timeline.json())).toContain(
      'Prior authorization expires on 03/01/2027: renew it now (plans accept renewals from 60 days before)',
    );

    // Again the same day, or the next: nothing more.
    expect(await raiseDueRenewals(db(), '2026-12-31')).toEqual({ raised: 0 });
    expect(await raiseDueRenewals(db(), '2027-01-01')).toEqual({ raised: 0 });
  });

  it('once dismissed stays dismissed for that expiry; a new expiry reminds again from its own day -60', async () => {
    const [id] = quiet as [string];
    const dismissed = await injectAs(t.app, morgan, {
      method: 'POST',
      url: '/api/mdo/v1/prescriptions/all/prior-auth/dismiss',
      headers: { 'x-request-id': generateRequestId() },
      payload: { prescriptionIds: [id] },
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect((await priorAuthItems()).map((r) => r.id)).not.toContain(id);
    expect(await raiseDueRenewals(db(), '2027-01-15')).toEqual({ raised: 0 });

    // The plan renewed it: the pharmacy sends the new expiry.
    await db().update(s.prescriptions).set({ priorAuthExpiresOn: '2028-03-01' }).where(eq(s.prescriptions.id, id));
    expect(await raiseDueRenewals(db(), '2027-12-31')).toEqual({ raised: 0 });
    expect(await raiseDueRenewals(db(), '2028-01-01')).toEqual({ raised: 1 });
    expect((await rowOf(id))?.priorAuthStatus).toBe(PRIOR_AUTH_RENEWAL_DUE);
  });

  it('never covers open PA work, and reminds for a PA that already lapsed', async () => {
    const [, open, lapsed] = quiet as [string, string, string];
    await db()
      .update(s.prescriptions)
      .set({ priorAuthExpiresOn: '2027-02-01', priorAuthStatus: 'PRIOR_AUTH_CHART_NOTES_NEEDED' })
      .where(eq(s.prescriptions.id, open));
    await db().update(s.prescriptions).set({ priorAuthExpiresOn: '2027-01-10' }).where(eq(s.prescriptions.id, lapsed));
    const before = await db().execute(sql`select count(*)::int as n from prescription_events`);
    expect(await raiseDueRenewals(db(), '2027-01-20')).toEqual({ raised: 1 });
    expect((await rowOf(open))?.priorAuthStatus).toBe('PRIOR_AUTH_CHART_NOTES_NEEDED');
    expect((await rowOf(lapsed))?.priorAuthStatus).toBe(PRIOR_AUTH_RENEWAL_DUE);
    const after = await db().execute(sql`select count(*)::int as n from prescription_events`);
    expect((after as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(
      ((before as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) + 1,
    );
  });
});
