/**
 * The one queue (issue 22): the same items as Action Needed, most urgent first — checked against an order worked
 * out here from the table itself — with the decision facts, filters, scope, cost and the server's clock.
 */
import {
  ACTION_TYPES,
  type ActionNeededDoctor,
  type ActionNeededPatient,
  type ActionNeededPrescription,
  type ActionQueueItem,
  actionNeededResponseSchema,
  actionQueueResponseSchema,
  BULK_REFUSALS,
  type BulkActionResult,
  bulkActionResultSchema,
  CONFLICT_MESSAGES,
  countActionNeeded,
  deriveActionTypes,
  EVENT_TYPES,
  flattenActionNeeded,
  generateRequestId,
  type Tokens,
} from '@hcp/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';

let t: TestApp;
let morgan: Tokens;
let clock = TEST_NOW;
beforeAll(async () => {
  t = await buildTestApp({ now: () => clock });
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
});
afterAll(() => t.close());

const queueUrl = (userId: string, query = '') => `/api/mdo/v2/users/${userId}/action-queue${query}`;
async function queue(tokens: Tokens = morgan, query = '') {
  const res = await injectAs(t.app, tokens, { method: 'GET', url: queueUrl(tokens.userID, query) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toContain('no-store');
  return actionQueueResponseSchema.parse(res.json());
}

const DAY = 86_400_000;

describe('GET /api/mdo/v2/users/{userId}/action-queue', () => {
  it('holds exactly the Action Needed items, with the same counts per category', async () => {
    const [{ items }, listRes] = await Promise.all([
      queue(),
      injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v2/users/${morgan.userID}/action-needed` }),
    ]);
    const entries = flattenActionNeeded<ActionNeededPrescription, ActionNeededPatient, ActionNeededDoctor>(
      actionNeededResponseSchema.parse(listRes.json()).doctors,
    );
    expect(items.length).toBeGreaterThan(20);
    expect(items.map((i) => i.id).sort()).toEqual(entries.map((e) => e.prescription.id).sort());
    const queueCounts = countActionNeeded(items.map((i) => ({ actionTypes: deriveActionTypes(i) })));
    expect(queueCounts).toEqual(countActionNeeded(entries));
    // Each item names its patient, prescriber and practice as the nested answer does.
    for (const entry of entries) {
      const item = items.find((i) => i.id === entry.prescription.id) as ActionQueueItem;
      expect(item.patient).toEqual({
        id: entry.patient.id,
        firstName: entry.patient.firstName,
        lastName: entry.patient.lastName,
        dob: entry.patient.dob,
      });
      expect(item.prescriber.id).toBe(entry.doctor.doctorId);
      expect(item.sig).toBe(entry.prescription.sig);
      // The cards carry the same supply facts (decision-ready cards).
      expect(entry.prescription.lastFilledOn).toBe(item.lastFilledOn);
      expect(entry.prescription.refillsRemaining).toBe(item.refillsRemaining);
    }
  });

  it('orders by run-out day then waiting time, as worked out independently from the table', async () => {
    const answer = await queue();
    const rows = await t.database.db
      .select({
        id: s.prescriptions.id,
        lastFilledOn: s.prescriptions.lastFilledOn,
        daysSupply: s.prescriptions.daysSupply,
        waiting: sql<string>`extract(epoch from coalesce(${s.prescriptions.requestReceivedAt}, ${s.prescriptions.lastProcessedAt}, ${s.prescriptions.prescribedAt}))::float8`,
      })
      .from(s.prescriptions)
      .where(
        inArray(
          s.prescriptions.id,
          answer.items.map((i) => i.id),
        ),
      );
    // Days left = the day the supply ends (fill day + supply, in epoch days) minus the test clock's day.
    const today = Math.floor(TEST_NOW.getTime() / DAY);
    const expected = rows
      .map((r) => ({
        id: r.id,
        left: r.lastFilledOn && r.daysSupply !== null ? Date.parse(r.lastFilledOn) / DAY + r.daysSupply - today : null,
        waiting: Number(r.waiting),
      }))
      .sort(
        (a, b) =>
          (a.left ?? Number.POSITIVE_INFINITY) - (b.left ?? Number.POSITIVE_INFINITY) ||
          a.waiting - b.waiting ||
          a.id.localeCompare(b.id),
      );
    expect(answer.items.map((i) => i.id)).toEqual(expected.map((e) => e.id));
    expect(answer.items.map((i) => i.runOutInDays)).toEqual(expected.map((e) => e.left));
    // The seed holds patients already out of medication and ones with weeks left, and some with no fill reported.
    const known = answer.items.filter((i) => i.runOutInDays !== null);
    expect(known.some((i) => (i.runOutInDays as number) <= 0)).toBe(true);
    expect(known.some((i) => (i.runOutInDays as number) > 7)).toBe(true);
    expect(answer.items.at(-1)?.runOutInDays).toBeNull();
  });

  it('counts the refill requests answered and denied before from the timeline', async () => {
    const { items } = await queue();
    const events = await t.database.db
      .select({ prescriptionId: s.prescriptionEvents.prescriptionId, type: s.prescriptionEvents.type })
      .from(s.prescriptionEvents)
      .where(
        inArray(
          s.prescriptionEvents.prescriptionId,
          items.map((i) => i.id),
        ),
      );
    const answered = [EVENT_TYPES.refillAuthorizedFax, EVENT_TYPES.refillAuthorizedErx, EVENT_TYPES.refillDenied] as string[];
    for (const item of items) {
      const own = events.filter((e) => e.prescriptionId === item.id);
      expect(item.timesRequestedBefore).toBe(own.filter((e) => answered.includes(e.type)).length);
      expect(item.priorDenials).toBe(own.filter((e) => e.type === EVENT_TYPES.refillDenied).length);
    }
    expect(items.some((i) => i.timesRequestedBefore > 0)).toBe(true);
    expect(items.some((i) => i.priorDenials > 0 || i.priorAuthExpiresOn !== null)).toBe(true);
  });

  it('narrows by category, prescriber and practice', async () => {
    const all = (await queue()).items;
    for (const category of ACTION_TYPES) {
      const { items } = await queue(morgan, `?category=${category}`);
      expect(items.map((i) => i.id)).toEqual(all.filter((i) => deriveActionTypes(i).includes(category)).map((i) => i.id));
    }
    const prescriber = all[0]?.prescriber.id as string;
    const mine = await queue(morgan, `?prescriber=${prescriber}`);
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.map((i) => i.id)).toEqual(all.filter((i) => i.prescriber.id === prescriber).map((i) => i.id));
    const practice = all[0]?.practice.id as string;
    const theirs = await queue(morgan, `?practice=${practice}`);
    expect(theirs.items.map((i) => i.id)).toEqual(all.filter((i) => i.practice.id === practice).map((i) => i.id));
    // A practice or prescriber outside the user's reach is 404 (issue 42), not someone else's items nor an empty list.
    const [foreign] = await t.database.db
      .select({ id: s.mdOffices.id })
      .from(s.mdOffices)
      .where(
        sql`${s.mdOffices.id} not in (${sql.join(
          [...new Set(all.map((i) => i.practice.id))].map((id) => sql`${id}`),
          sql`, `,
        )})`,
      )
      .limit(1);
    const outside = await injectAs(t.app, morgan, { method: 'GET', url: queueUrl(morgan.userID, `?practice=${foreign?.id}`) });
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error.message).toBe('Practice not found.');
  });

  it('marks a controlled substance by its NDC', async () => {
    const { items } = await queue();
    expect(items.every((i) => i.isControlled === false)).toBe(true);
    const [controlled] = await t.database.db
      .select({ ndc: s.drugProducts.ndc })
      .from(s.drugProducts)
      .where(eq(s.drugProducts.isControlled, true))
      .limit(1);
    const target = items[0] as ActionQueueItem;
    await t.database.db.update(s.prescriptions).set({ dispensedNdc: controlled?.ndc }).where(eq(s.prescriptions.id, target.id));
    const after = (await queue()).items.find((i) => i.id === target.id);
    expect(after?.isControlled).toBe(true);
    await t.database.db
      .update(s.prescriptions)
      .set({ dispensedNdc: target.dispensedNdc })
      .where(eq(s.prescriptions.id, target.id));
  });

  it("counts days from the server's clock", async () => {
    const before = await queue();
    clock = new Date(TEST_NOW.getTime() + 2 * DAY);
    try {
      const later = await queue();
      expect(later.today).toBe('2026-11-22');
      const known = before.items.filter((i) => i.runOutInDays !== null);
      expect(known.length).toBeGreaterThan(5);
      for (const item of known) {
        const moved = later.items.find((i) => i.id === item.id);
        if (moved) expect(moved.runOutInDays).toBe((item.runOutInDays as number) - 2);
      }
    } finally {
      clock = TEST_NOW;
    }
  });

  it('costs at most 3 SQL statements and writes one audit row naming the filters', async () => {
    const before = t.database.stats.queries;
    const res = await injectAs(t.app, morgan, { method: 'GET', url: queueUrl(morgan.userID, '?category=refillAuth') });
    expect(res.statusCode).toBe(200);
    expect(t.database.stats.queries - before).toBeLessThanOrEqual(3);
    const rows = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'action-queue.read'), eq(s.auditLog.requestId, res.headers['x-request-id'] as string)));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.actorUserId).toBe(morgan.userID);
    expect(rows[0]?.details).toMatchObject({ category: 'refillAuth' });
  });

  it("keeps to the user's reach: another user's queue is 404, provider users see no patient, bad filters are 400", async () => {
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const other = await injectAs(t.app, staff, { method: 'GET', url: queueUrl(morgan.userID) });
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('NOT_FOUND');
    expect((await queue(staff)).items.length).toBeGreaterThan(0);
    const sales = await signIn(t.app, 'sales@demo.hcp');
    expect((await queue(sales)).items).toEqual([]);
    const bad = await injectAs(t.app, morgan, { method: 'GET', url: queueUrl(morgan.userID, '?practice=nope&category=x') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    expect(
      bad
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['querystring.category', 'querystring.practice']);
    const signedOut = await t.app.inject({ method: 'GET', url: queueUrl(morgan.userID) });
    expect(signedOut.statusCode).toBe(401);
  });
});

const bulkUrl = '/api/mdo/v1/prescriptions/bulk-actions';
function bulk(body: Record<string, unknown>, requestId = generateRequestId(), tokens: Tokens = morgan) {
  return injectAs(t.app, tokens, {
    method: 'POST',
    url: bulkUrl,
    payload: { senderName: 'Dr. Alex Morgan', ...body },
    headers: { 'x-request-id': requestId },
  });
}
const rowOf = async (id: string) => (await t.database.db.select().from(s.prescriptions).where(eq(s.prescriptions.id, id)))[0];
const eventsOf = (id: string) =>
  t.database.db.select().from(s.prescriptionEvents).where(eq(s.prescriptionEvents.prescriptionId, id));
const outboxOf = (id: string) => t.database.db.select().from(s.outbox).where(eq(s.outbox.prescriptionId, id));
const resultOf = (answer: BulkActionResult, id: string) => answer.results.find((r) => r.id === id);

/** Refill requests of the queue nobody acted on yet in this file (each test takes its own). */
const taken = new Set<string>();
async function freshRefills(n: number): Promise<ActionQueueItem[]> {
  const { items } = await queue(morgan, '?category=refillAuth');
  const fresh = items.filter((i) => !taken.has(i.id) && !i.isControlled && i.sig).slice(0, n);
  if (fresh.length < n) throw new Error(`the seed has fewer than ${n} untouched refill requests`);
  for (const i of fresh) taken.add(i.id);
  return fresh;
}

describe('POST /api/mdo/v1/prescriptions/bulk-actions', () => {
  it('decides each item on its own: done, changed meanwhile, controlled, not a refill; one out of reach refuses all', async () => {
    const [ok, stale, controlled] = await freshRefills(3);
    const pa = (await queue(morgan, '?category=priorAuth')).items.find((i) => !i.needsRefillAuth) as ActionQueueItem;
    const [drug] = await t.database.db
      .select({ ndc: s.drugProducts.ndc })
      .from(s.drugProducts)
      .where(eq(s.drugProducts.isControlled, true))
      .limit(1);
    await t.database.db
      .update(s.prescriptions)
      .set({ dispensedNdc: drug?.ndc })
      .where(eq(s.prescriptions.id, controlled?.id as string));
    const [foreign] = await t.database.db
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .where(sql`${s.prescriptions.mdOfficeId} <> ${ok?.practice.id} and ${s.prescriptions.needsRefillAuth}`)
      .limit(1);
    const items = [ok, stale, controlled, pa].map((i) => ({ id: i?.id as string, version: i?.version as number }));
    const staleItem = items[1] as { version: number };
    staleItem.version += 1;
    // An id outside the caller's reach is resolved before anything runs (issue 42): 404, nothing decided, audited.
    const probe = await bulk({ action: 'refillDeny', reason: 'NEED_OFFICE_VISIT', items: [...items, { id: foreign?.id }] });
    expect(probe.statusCode, probe.body).toBe(404);
    expect(probe.json().error.message).toBe('Prescription not found.');
    expect((await rowOf(ok?.id as string))?.needsRefillAuth).toBe(true);
    const refusals = await t.database.db
      .select()
      .from(s.auditLog)
      .where(eq(s.auditLog.requestId, probe.headers['x-request-id'] as string));
    expect(refusals.map((a) => [a.action, a.entityType])).toEqual([['reach.refused', 'prescription']]);
    const res = await bulk({ action: 'refillDeny', reason: 'NEED_OFFICE_VISIT', items });
    expect(res.statusCode, res.body).toBe(200);
    const answer = bulkActionResultSchema.parse(res.json());
    expect(answer).toMatchObject({ done: 1, refused: 3 });
    expect(resultOf(answer, ok?.id as string)).toEqual({ id: ok?.id, status: 'done' });
    expect(resultOf(answer, stale?.id as string)?.reason).toBe(BULK_REFUSALS.changed);
    expect(resultOf(answer, controlled?.id as string)?.reason).toBe(BULK_REFUSALS.controlled);
    expect(resultOf(answer, pa.id)?.reason).toBe(CONFLICT_MESSAGES.refillDenied);
    // Only the decided item changed, with its event and its message to the pharmacy.
    expect((await rowOf(ok?.id as string))?.needsRefillAuth).toBe(false);
    for (const left of [stale, controlled]) expect((await rowOf(left?.id as string))?.needsRefillAuth).toBe(true);
    expect((await rowOf(foreign?.id as string))?.needsRefillAuth).toBe(true);
    const requestEvents = async (id: string) => (await eventsOf(id)).filter((e) => e.requestId === res.headers['x-request-id']);
    expect(await requestEvents(ok?.id as string)).toHaveLength(1);
    expect(await requestEvents(stale?.id as string)).toHaveLength(0);
    // Every attempt is audited, the refused ones as refused.
    const audits = await t.database.db
      .select()
      .from(s.auditLog)
      .where(eq(s.auditLog.requestId, res.headers['x-request-id'] as string));
    expect(audits.map((a) => a.action).sort()).toEqual([
      'prescription.refillDenied',
      'prescription.refillDenied.refused',
      'prescription.refillDenied.refused',
      'prescription.refillDenied.refused',
    ]);
  });

  it('authorizes by each practice’s fax or eRx choice, and a repeat of the call acts once', async () => {
    const [byFax, byErx] = await freshRefills(2);
    const practice = byFax?.practice.id as string;
    const [before] = await t.database.db.select().from(s.mdOffices).where(eq(s.mdOffices.id, practice));
    const via = async (prescribeVia: string | null) =>
      t.database.db.update(s.mdOffices).set({ prescribeVia }).where(eq(s.mdOffices.id, practice));
    await via('Fax');
    const requestId = generateRequestId();
    const body = { action: 'refillAuthorize', items: [{ id: byFax?.id }] };
    const first = await bulk(body, requestId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ done: 1, refused: 0 });
    const again = await bulk(body, requestId);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    await via('eRx');
    try {
      expect((await bulk({ action: 'refillAuthorize', items: [{ id: byErx?.id }] })).json()).toMatchObject({ done: 1 });
    } finally {
      await via(before?.prescribeVia ?? null);
    }
    expect((await outboxOf(byFax?.id as string)).map((o) => o.channel)).toContain('fax');
    expect((await outboxOf(byErx?.id as string)).map((o) => o.channel)).toContain('erx');
    const faxMessages = (await outboxOf(byFax?.id as string)).filter((o) => o.channel === 'fax');
    expect(faxMessages).toHaveLength(1);
    expect(faxMessages[0]?.payload).toMatchObject({ type: 'refill-authorized', refills: byFax?.refills, sig: byFax?.sig });
  });

  it('two bulk calls over the same items at once decide each item once', async () => {
    const items = (await freshRefills(4)).map((i) => ({ id: i.id, version: i.version }));
    const [a, b] = await Promise.all([
      bulk({ action: 'refillDeny', reason: 'NO_LONGER_TAKING_MEDS', items }),
      bulk({ action: 'refillPostpone', postponeTo: '2026-12-15', items: [...items].reverse() }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const answers = [bulkActionResultSchema.parse(a.json()), bulkActionResultSchema.parse(b.json())];
    expect(answers.reduce((n, x) => n + x.done, 0)).toBe(4);
    for (const { id } of items) {
      const decided = answers.filter((x) => resultOf(x, id)?.status === 'done');
      expect(decided).toHaveLength(1);
      const events = (await eventsOf(id)).filter(
        (e) => e.requestId === a.headers['x-request-id'] || e.requestId === b.headers['x-request-id'],
      );
      expect(events).toHaveLength(1);
    }
  });

  it('refuses the whole call to whom the decision is not theirs, and bad input, changing nothing', async () => {
    const [item] = await freshRefills(1);
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const refused = await bulk({ action: 'refillAuthorize', items: [{ id: item?.id }] }, generateRequestId(), staff);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
    expect((await rowOf(item?.id as string))?.needsRefillAuth).toBe(true);
    const [audit] = await t.database.db
      .select()
      .from(s.auditLog)
      .where(eq(s.auditLog.requestId, refused.headers['x-request-id'] as string));
    expect(audit?.action).toBe('prescription.bulk.refillAuthorize.refused');
    // Staff may postpone (no signature needed), on the same path.
    const postponed = await bulk(
      { action: 'refillPostpone', postponeTo: '2026-12-01', items: [{ id: item?.id }] },
      generateRequestId(),
      staff,
    );
    expect(postponed.json()).toMatchObject({ done: 1 });
    for (const body of [
      { action: 'refillDeny', items: [{ id: item?.id }] },
      { action: 'refillPostpone', items: [{ id: item?.id }] },
      { action: 'refillPostpone', postponeTo: '2026-11-01', items: [{ id: item?.id }] },
      { action: 'refillDeny', reason: 'POSTPONE_REFILL_AUTH', items: [{ id: item?.id }] },
      { action: 'refillAuthorize', items: [] },
      { action: 'refillAuthorize', items: [{ id: item?.id }, { id: item?.id }] },
    ]) {
      const bad = await bulk(body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await rowOf(item?.id as string))?.refillPostponedUntil).toBe('2026-12-01');
  });
});
