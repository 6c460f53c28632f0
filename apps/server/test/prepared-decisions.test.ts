/**
 * Prepare-then-sign (issue 23): office staff prepare what needs the prescriber's signature and mark it ready; nothing
 * goes to the pharmacy until a prescriber signs it as prepared; the timeline names who prepared and who signed; a
 * request that changed since it was prepared is refused, not signed blind; staff can never sign.
 */
import { EVENT_TYPES, generateRequestId } from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let morgan: Awaited<ReturnType<typeof signIn>>;
let lee: Awaited<ReturnType<typeof signIn>>;
let refills: string[];
const db = () => t.database.db;

const call = (who: typeof morgan, method: 'PUT' | 'DELETE' | 'POST', url: string, payload?: Record<string, unknown>) =>
  injectAs(t.app, who, {
    method,
    url,
    headers: { 'x-request-id': generateRequestId() },
    ...(payload === undefined ? {} : { payload }),
  });
const prepare = (who: typeof morgan, id: string, decision: Record<string, unknown>) =>
  call(who, 'PUT', `/api/mdo/v1/prescriptions/${id}/prepared-decision`, decision);
const sign = (who: typeof morgan, items: { id: string; version?: number }[]) =>
  call(who, 'POST', '/api/mdo/v1/prepared-decisions/sign', { items, senderName: 'Dr. Alex Morgan' });

async function listed(id: string) {
  const res = await injectAs(t.app, morgan, {
    method: 'GET',
    url: `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_ALL`,
  });
  type Rx = { id: string; prepared?: unknown; needsRefillAuth: boolean };
  return (res.json().doctors as { patients: { prescriptions: Rx[] }[] }[])
    .flatMap((d) => d.patients.flatMap((p) => p.prescriptions))
    .find((r) => r.id === id);
}
const rowOf = async (id: string) => (await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, id)))[0];
const messagesOf = async (id: string) => db().select().from(s.outbox).where(eq(s.outbox.prescriptionId, id));

beforeAll(async () => {
  t = await buildTestApp();
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  lee = await signIn(t.app, 'staff.lee@demo.hcp');
  const rows = (await db().execute(sql`select rx.id from prescriptions rx join users u on u.md_office_id = rx.md_office_id
      where u.email = 'dr.morgan@demo.hcp' and rx.needs_refill_auth and rx.refill_postponed_until is null
        and rx.sig is not null and not exists (select 1 from drug_products dp
          where dp.ndc in (rx.prescribed_ndc, rx.dispensed_ndc) and dp.is_controlled)
      order by rx.id limit 6`)) as unknown as { rows: { id: string }[] };
  refills = rows.rows.map((r) => r.id);
  expect(refills).toHaveLength(6);
});
afterAll(() => t.close());

describe('prepare-then-sign', () => {
  it('staff prepare; nothing is sent; the prescriber sees what was prepared, by whom, and the staff cannot sign', async () => {
    const [a] = refills as [string];
    const before = (await messagesOf(a)).length;
    const res = await prepare(lee, a, {
      action: 'refillAuthorizedFax',
      refills: 2,
      sig: 'Take 1 tablet daily',
      note: 'Seen last month',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await messagesOf(a)).length).toBe(before);
    expect((await rowOf(a))?.needsRefillAuth).toBe(true);
    expect((await listed(a))?.prepared).toMatchObject({
      decision: { action: 'refillAuthorizedFax', refills: 2, sig: 'Take 1 tablet daily', note: 'Seen last month' },
      preparedByName: expect.stringContaining('Lee'),
    });
    const timeline = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${a}/events` });
    expect(JSON.stringify(timeline.json())).toContain(
      'Prepared for the prescriber’s signature: Authorize by fax: 2 refill(s), “Take 1 tablet daily”',
    );
    // The queue view's row carries it too.
    const queue = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v2/users/${morgan.userID}/action-queue` });
    expect(queue.statusCode, queue.body.slice(0, 300)).toBe(200);
    const row = (queue.json().items as { id: string; prepared: unknown }[]).find((i) => i.id === a);
    expect(row?.prepared).toMatchObject({ decision: { action: 'refillAuthorizedFax', refills: 2 } });
    // The note is for the prescriber, not the timeline.
    expect(JSON.stringify(timeline.json())).not.toContain('Seen last month');

    const bySt = await sign(lee, [{ id: a }]);
    expect(bySt.statusCode).toBe(403);
    expect((await rowOf(a))?.needsRefillAuth).toBe(true);

    // Another practice's prescriber learns nothing: the item is outside their reach, 404 as any such id (issue 42).
    // Dr. Patel (another practice) signs in here without the e-mailed code.
    await db().update(s.users).set({ mfaEnabled: false }).where(eq(s.users.email, 'dr.patel@demo.hcp'));
    const stranger = await signIn(t.app, 'dr.patel@demo.hcp');
    const probe = await sign(stranger, [{ id: a }]);
    expect(probe.statusCode).toBe(404);
    expect(probe.json().error.message).toBe('Prescription not found.');
    expect((await rowOf(a))?.needsRefillAuth).toBe(true);
  });

  it('the prescriber signs all in one call; each is decided as prepared, changed and unprepared ones are refused', async () => {
    const [a, b, c, d] = refills as [string, string, string, string];
    expect((await prepare(lee, b, { action: 'refillDenied', reason: 'NEED_OFFICE_VISIT' })).statusCode).toBe(200);
    expect((await prepare(lee, d, { action: 'refillAuthorizedErx' })).statusCode).toBe(200);
    // The pharmacy changed d after it was prepared.
    await db().execute(sql`update prescriptions set version = version + 1, sig = 'Take 2 tablets' where id = ${d}::uuid`);

    const res = await sign(morgan, [{ id: a }, { id: b }, { id: c }, { id: d }]);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { done: number; refused: number; results: { id: string; status: string; reason?: string }[] };
    expect(answer).toMatchObject({ done: 2, refused: 2 });
    expect(answer.results.find((r) => r.id === c)?.reason).toBe('Nothing is prepared for this item any more.');
    expect(answer.results.find((r) => r.id === d)?.reason).toBe('It changed since it was prepared: open it to see what changed.');

    expect(await rowOf(a)).toMatchObject({ needsRefillAuth: false, refills: 2, sig: 'Take 1 tablet daily' });
    expect(await rowOf(b)).toMatchObject({ needsRefillAuth: false, orderStatus: 'Refill denied: office visit needed' });
    expect((await rowOf(d))?.needsRefillAuth).toBe(true);
    const events = await db()
      .select()
      .from(s.prescriptionEvents)
      .where(and(eq(s.prescriptionEvents.prescriptionId, a), eq(s.prescriptionEvents.type, EVENT_TYPES.refillAuthorizedFax)));
    expect(events[0]?.actorUserId).toBe(morgan.userID);
    expect(events[0]?.data).toMatchObject({ preparedBy: expect.stringContaining('Lee'), refills: 2 });
    const timeline = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${a}/events` });
    expect(JSON.stringify(timeline.json())).toMatch(/Refill authorized by fax: 2 refill\(s\) — prepared by [^"]*Lee/);
    expect((await messagesOf(a)).map((m) => m.eventType)).toContain('refill.authorized');
    // Signed ones are no longer prepared; the changed one's preparation is stale: no longer offered to sign.
    const left = await db().select().from(s.preparedDecisions);
    expect(left.map((p) => p.prescriptionId).sort()).toEqual([d]);
    expect((await listed(d))?.needsRefillAuth).toBe(true);
    expect((await listed(d))?.prepared ?? null).toBeNull();
  });

  it('a decision taken directly ends the preparation; staff withdraw theirs; a state that does not allow it is refused', async () => {
    const [, , , d, e, f] = refills as [string, string, string, string, string, string];
    const direct = await call(morgan, 'POST', `/api/mdo/v1/prescriptions/${d}/refills-denied`, {
      reason: 'NO_LONGER_TAKING_MEDS',
      senderName: 'Dr. Alex Morgan',
    });
    expect(direct.statusCode, direct.body).toBe(200);
    expect(await db().select().from(s.preparedDecisions).where(eq(s.preparedDecisions.prescriptionId, d))).toEqual([]);

    expect((await prepare(lee, e, { action: 'refillAuthorizedErx', note: 'ok' })).statusCode).toBe(200);
    expect((await call(lee, 'DELETE', `/api/mdo/v1/prescriptions/${e}/prepared-decision`)).statusCode).toBe(200);
    expect((await listed(e))?.prepared ?? null).toBeNull();
    expect((await call(lee, 'DELETE', `/api/mdo/v1/prescriptions/${e}/prepared-decision`)).statusCode).toBe(409);

    // An alternative for a request that waits for no alternative: refused like the decision itself.
    const wrong = await prepare(lee, f, { action: 'alternativeMed', noSubstitute: true });
    expect(wrong.statusCode).toBe(409);
    expect(await db().select().from(s.preparedDecisions).where(eq(s.preparedDecisions.prescriptionId, f))).toEqual([]);
    // A denial by postponement cannot be prepared (it asks for its day): the schema says which reasons.
    expect((await prepare(lee, f, { action: 'refillDenied', reason: 'POSTPONE_REFILL_AUTH' })).statusCode).toBe(400);
  });
});
