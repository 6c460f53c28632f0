/**
 * Undo (issue 22; decision 0030): a decision is held for its window, nothing goes to the pharmacy meanwhile, and
 * the user who made it can take it back — single or bulk — until the window ends, across a restart of the server.
 */
import {
  type ActionQueueItem,
  actionQueueResponseSchema,
  actionResultSchema,
  bulkActionResultSchema,
  EVENT_TYPES,
  generateRequestId,
  prescriptionEventsSchema,
  type Tokens,
  UNDO_REFUSALS,
  undoResultSchema,
} from '@hcp/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';

const WINDOW = { UNDO_WINDOW_SECONDS: '10' };
let t: TestApp;
let morgan: Tokens;
beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW, env: WINDOW });
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
});
afterAll(() => t?.close());

const taken = new Set<string>();
/** Refill requests of Morgan's queue no test of this file touched yet. */
async function fresh(n: number, category = 'refillAuth', app = t): Promise<ActionQueueItem[]> {
  const res = await injectAs(app.app, morgan, {
    method: 'GET',
    url: `/api/mdo/v2/users/${morgan.userID}/action-queue?category=${category}`,
  });
  const items = actionQueueResponseSchema
    .parse(res.json())
    .items.filter((i) => !taken.has(i.id) && !i.isControlled && i.sig && (category !== 'priorAuth' || !i.needsRefillAuth))
    .slice(0, n);
  if (items.length < n) throw new Error(`fewer than ${n} untouched ${category} items`);
  for (const i of items) taken.add(i.id);
  return items;
}

function post(app: TestApp, url: string, payload?: unknown, tokens = morgan, requestId = generateRequestId()) {
  return injectAs(app.app, tokens, { method: 'POST', url, payload: payload ?? {}, headers: { 'x-request-id': requestId } });
}
const authorizeFax = (app: TestApp, item: ActionQueueItem) =>
  post(app, `/api/mdo/v1/prescriptions/${item.id}/refills-authorized/fax`, {
    refills: 3,
    sig: 'Take one tablet daily (changed)',
    senderName: 'Dr. Alex Morgan',
  });
const undo = (app: TestApp, requestId: string, tokens = morgan) =>
  post(app, `/api/mdo/v1/decisions/${requestId}/undo`, undefined, tokens);

const rowOf = async (id: string) => (await t.database.db.select().from(s.prescriptions).where(eq(s.prescriptions.id, id)))[0];
const outboxOf = (ids: string[]) => t.database.db.select().from(s.outbox).where(inArray(s.outbox.prescriptionId, ids));
const dispatch = (app: TestApp) => app.app.webhookWorker.runOnce();
/** Ends the windows of this user's open decisions now, as the clock would in a few seconds (the database's clock). */
async function endWindows() {
  await t.database.db.execute(sql`update decision_undos set undo_until = now() where undone_at is null`);
  await t.database.db.execute(sql`update outbox set not_before = now() where dispatched_at is null`);
}

describe('a decision within its undo window', () => {
  it('is held: answered with the offer, nothing dispatched, the timeline says when it goes', async () => {
    const [item] = await fresh(1);
    const res = await authorizeFax(t, item as ActionQueueItem);
    expect(res.statusCode, res.body).toBe(200);
    const answer = actionResultSchema.parse(res.json());
    expect(answer.undo?.requestId).toBe(res.headers['x-request-id']);
    const left = Date.parse(answer.undo?.until as string) - Date.now();
    expect(left).toBeGreaterThan(7_000);
    expect(left).toBeLessThanOrEqual(10_500);
    // The worker runs, yet the decision stays in the outbox (the pharmacy hears nothing).
    await dispatch(t);
    const [message] = await outboxOf([item?.id as string]);
    expect(message?.dispatchedAt).toBeNull();
    expect(message?.notBefore.toISOString()).toBe(new Date(answer.undo?.until as string).toISOString());
    const events = prescriptionEventsSchema.parse(
      (await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${item?.id}/events` })).json(),
    );
    expect(events.at(-1)).toMatchObject({ type: EVENT_TYPES.refillAuthorizedFax, heldUntil: answer.undo?.until });
  });

  it('is undone: the prescription is back as it was, the message never leaves, the timeline shows both', async () => {
    const [item] = (await fresh(1)) as [ActionQueueItem];
    const before = await rowOf(item.id);
    const res = await authorizeFax(t, item);
    const { undo: offer } = actionResultSchema.parse(res.json());
    expect((await rowOf(item.id))?.needsRefillAuth).toBe(false);

    const undone = await undo(t, offer?.requestId as string);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undoResultSchema.parse(undone.json())).toEqual({
      undone: 1,
      refused: 0,
      results: [{ id: item.id, status: 'undone' }],
    });
    const after = await rowOf(item.id);
    expect({ ...after, version: 0, updatedAt: null }).toEqual({ ...before, version: 0, updatedAt: null });
    expect(after?.version).toBe((before?.version ?? 0) + 2);
    const [message] = await outboxOf([item.id]);
    expect(message).toMatchObject({ status: 'cancelled', dispatchedAt: null });
    expect(message?.cancelledAt).not.toBeNull();
    // Past its window it is still never dispatched.
    await endWindows();
    await dispatch(t);
    expect((await outboxOf([item.id]))[0]?.dispatchedAt).toBeNull();

    const events = prescriptionEventsSchema.parse(
      (await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${item.id}/events` })).json(),
    );
    const [decided, undoneEvent] = events.slice(-2);
    expect(decided).toMatchObject({ type: EVENT_TYPES.refillAuthorizedFax, undone: true });
    expect(decided?.heldUntil).toBeUndefined();
    expect(undoneEvent).toMatchObject({ type: EVENT_TYPES.decisionUndone, actorName: 'Dr. Alex Morgan' });
    expect(undoneEvent?.summary).toBe('Undone: Refill authorized by fax: 3 refill(s) (nothing was sent to the pharmacy)');
    // The item is back in the queue, and the undone decision is not counted as an earlier answer.
    const queue = actionQueueResponseSchema.parse(
      (await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v2/users/${morgan.userID}/action-queue` })).json(),
    );
    expect(queue.items.find((i) => i.id === item.id)?.timesRequestedBefore).toBe(item.timesRequestedBefore);
    // Audited, naming the decision it took back.
    const audits = await t.database.db
      .select()
      .from(s.auditLog)
      .where(eq(s.auditLog.requestId, undone.headers['x-request-id'] as string));
    expect(audits.map((a) => [a.action, a.details])).toEqual([
      ['prescription.decision.undone', { decisionRequestId: offer?.requestId, prescriptionIds: [item.id] }],
    ]);
    // Once is enough: a second undo finds nothing left to take back (409, nothing changes).
    const again = await undo(t, offer?.requestId as string);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'CONFLICT', message: UNDO_REFUSALS.alreadyUndone });
  });

  it('cannot be undone after the window: the decision goes to the pharmacy', async () => {
    const [item] = (await fresh(1)) as [ActionQueueItem];
    const { undo: offer } = actionResultSchema.parse((await authorizeFax(t, item)).json());
    await endWindows();
    const late = await undo(t, offer?.requestId as string);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(UNDO_REFUSALS.tooLate);
    expect((await rowOf(item.id))?.needsRefillAuth).toBe(false);
    await dispatch(t);
    expect((await outboxOf([item.id]))[0]?.dispatchedAt).not.toBeNull();
  });

  it('cannot be undone once the prescription changed since, nor by another user', async () => {
    const [item] = (await fresh(1)) as [ActionQueueItem];
    const { undo: offer } = actionResultSchema.parse((await authorizeFax(t, item)).json());
    // Another user of the practice cannot take back Morgan's decision (not theirs: as unknown as none).
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const foreign = await undo(t, offer?.requestId as string, staff);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('NOT_FOUND');
    expect((await undo(t, generateRequestId())).statusCode).toBe(404);
    const malformed = await undo(t, 'not-a-request-id');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('VALIDATION_FAILED');
    // A later write to the prescription (the pharmacy's system, here) makes the undo refuse, not overwrite it.
    await t.database.db
      .update(s.prescriptions)
      .set({ version: sql`${s.prescriptions.version} + 1`, orderStatus: 'Filled' })
      .where(eq(s.prescriptions.id, item.id));
    const changed = await undo(t, offer?.requestId as string);
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.message).toBe(UNDO_REFUSALS.changed);
    expect((await rowOf(item.id))?.orderStatus).toBe('Filled');
    expect((await outboxOf([item.id]))[0]?.cancelledAt).toBeNull();
  });

  it('undoes a bulk decision in one call, item by item, with one window for all', async () => {
    const items = await fresh(3);
    const [a, b, c] = items as [ActionQueueItem, ActionQueueItem, ActionQueueItem];
    const before = new Map(await Promise.all(items.map(async (i) => [i.id, await rowOf(i.id)] as const)));
    const res = await post(t, '/api/mdo/v1/prescriptions/bulk-actions', {
      action: 'refillDeny',
      reason: 'NEED_OFFICE_VISIT',
      senderName: 'Dr. Alex Morgan',
      items: items.map((i) => ({ id: i.id, version: i.version })),
    });
    const answer = bulkActionResultSchema.parse(res.json());
    expect(answer).toMatchObject({ done: 3, refused: 0 });
    const holds = await outboxOf(items.map((i) => i.id));
    expect(new Set(holds.map((o) => o.notBefore.toISOString()))).toEqual(
      new Set([new Date(answer.undo?.until as string).toISOString()]),
    );
    // One of them changes meanwhile: it is left as decided, the others come back.
    await t.database.db
      .update(s.prescriptions)
      .set({ version: sql`${s.prescriptions.version} + 1` })
      .where(eq(s.prescriptions.id, c.id));
    const undone = undoResultSchema.parse((await undo(t, answer.undo?.requestId as string)).json());
    expect(undone).toMatchObject({ undone: 2, refused: 1 });
    expect(undone.results.find((r) => r.id === c.id)).toEqual({ id: c.id, status: 'refused', reason: UNDO_REFUSALS.changed });
    for (const back of [a, b]) {
      expect((await rowOf(back.id))?.needsRefillAuth).toBe(true);
      expect((await rowOf(back.id))?.orderStatus).toBe(before.get(back.id)?.orderStatus);
    }
    expect((await rowOf(c.id))?.needsRefillAuth).toBe(false);
    const messages = await outboxOf(items.map((i) => i.id));
    expect(
      messages
        .filter((m) => m.cancelledAt !== null)
        .map((m) => m.prescriptionId)
        .sort(),
    ).toEqual([a.id, b.id].sort());
  });

  it('takes back a prior-authorization dismissal of several items', async () => {
    const pas = await fresh(2, 'priorAuth');
    const res = await post(t, '/api/mdo/v1/prescriptions/all/prior-auth/dismiss', { prescriptionIds: pas.map((p) => p.id) });
    expect(res.statusCode, res.body).toBe(200);
    const { undo: offer } = actionResultSchema.parse(res.json());
    expect(undoResultSchema.parse((await undo(t, offer?.requestId as string)).json()).undone).toBe(2);
    for (const pa of pas) expect((await rowOf(pa.id))?.priorAuthStatus).toBe(pa.priorAuthStatus);
  });

  it('stays held across a restart, can be undone by the next instance, and goes out when the window ends', async () => {
    const first = await buildTestApp({ database: t.database, env: { UNDO_WINDOW_SECONDS: '3' }, now: () => TEST_NOW });
    const [kept, takenBack] = (await fresh(2, 'refillAuth', first)) as [ActionQueueItem, ActionQueueItem];
    const keptOffer = actionResultSchema.parse((await authorizeFax(first, kept)).json()).undo;
    const backOffer = actionResultSchema.parse((await authorizeFax(first, takenBack)).json()).undo;
    await first.app.close(); // the process that took the decisions is gone; its timers with it

    const second = await buildTestApp({ database: t.database, env: { UNDO_WINDOW_SECONDS: '3' }, now: () => TEST_NOW });
    try {
      await dispatch(second);
      expect((await outboxOf([kept.id]))[0]?.dispatchedAt).toBeNull();
      expect((await undo(second, backOffer?.requestId as string)).statusCode).toBe(200);
      // Wait for the window's end by the database's clock, then the next round sends the kept decision only.
      const waitMs = Date.parse(keptOffer?.until as string) - Date.now() + 300;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs)));
      await dispatch(second);
      const [keptMessage] = await outboxOf([kept.id]);
      const [backMessage] = await outboxOf([takenBack.id]);
      expect(keptMessage?.dispatchedAt).not.toBeNull();
      expect(backMessage).toMatchObject({ dispatchedAt: null, status: 'cancelled' });
      expect((await undo(second, keptOffer?.requestId as string)).json().error.message).toBe(UNDO_REFUSALS.tooLate);
    } finally {
      await second.app.close();
    }
  });

  it('holds back a later decision of the same prescription until the held one goes, keeping their order', async () => {
    const [item] = (await fresh(1)) as [ActionQueueItem];
    await authorizeFax(t, item);
    // A decision due now (here: one made with no window) on the same prescription comes later in commit order.
    await t.database.db.insert(s.outbox).values({
      channel: 'webhook',
      prescriptionId: item.id,
      payload: {},
      eventType: 'prescription.created',
    });
    await dispatch(t);
    const messages = await outboxOf([item.id]);
    expect(messages.every((m) => m.dispatchedAt === null)).toBe(true);
    await endWindows();
    // The held one goes first; the later one only in the round after (the worker goes again at once while it dispatches).
    await dispatch(t);
    const firstRound = await outboxOf([item.id]);
    expect(firstRound.filter((m) => m.dispatchedAt !== null).map((m) => m.eventType)).toEqual(['refill.authorized']);
    await dispatch(t);
    expect((await outboxOf([item.id])).every((m) => m.dispatchedAt !== null)).toBe(true);
  });
});

describe('undoing a signature of what staff prepared (issue 47)', () => {
  it('brings the preparation back with the item, by whom, ready to be signed again as it was', async () => {
    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    const [item] = (await fresh(1)) as [ActionQueueItem];
    const prepared = await injectAs(t.app, lee, {
      method: 'PUT',
      url: `/api/mdo/v1/prescriptions/${item.id}/prepared-decision`,
      payload: { action: 'refillDenied', reason: 'NEED_OFFICE_VISIT' },
      headers: { 'x-request-id': generateRequestId() },
    });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const before = (
      await t.database.db.select().from(s.preparedDecisions).where(eq(s.preparedDecisions.prescriptionId, item.id))
    )[0];
    const sign = () =>
      post(t, '/api/mdo/v1/prepared-decisions/sign', { items: [{ id: item.id }], senderName: 'Dr. Alex Morgan' });
    const signed = bulkActionResultSchema.parse((await sign()).json());
    expect(signed).toMatchObject({ done: 1 });
    expect(await t.database.db.select().from(s.preparedDecisions).where(eq(s.preparedDecisions.prescriptionId, item.id))).toEqual(
      [],
    );

    const back = await undo(t, signed.undo?.requestId as string);
    expect(undoResultSchema.parse(back.json())).toMatchObject({ undone: 1 });
    const [restored] = await t.database.db
      .select()
      .from(s.preparedDecisions)
      .where(eq(s.preparedDecisions.prescriptionId, item.id));
    expect(restored).toMatchObject({ decision: before?.decision, preparedBy: before?.preparedBy });
    // For the prescription as the undo left it: signing it again is not refused as changed.
    expect(restored?.prescriptionVersion).toBe((await rowOf(item.id))?.version);
    const again = bulkActionResultSchema.parse((await sign()).json());
    expect(again).toMatchObject({ done: 1, refused: 0 });
    expect(await rowOf(item.id)).toMatchObject({ needsRefillAuth: false, orderStatus: 'Refill denied: office visit needed' });
  });
});
