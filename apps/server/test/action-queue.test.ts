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
  countActionNeeded,
  deriveActionTypes,
  EVENT_TYPES,
  flattenActionNeeded,
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
    // A practice or prescriber outside the user's reach gives nothing, not someone else's items.
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
    expect((await queue(morgan, `?practice=${foreign?.id}`)).items).toEqual([]);
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
