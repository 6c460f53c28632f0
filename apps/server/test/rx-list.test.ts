/** GET rx-list: the range, each filter checked against the seed rows computed here independently, bad input. */
import { rxListResponseSchema, type Tokens } from '@hcp/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { errorPaths } from './support/errors.ts';

let t: TestApp;
let morgan: Tokens;
let officeIds: string[];
beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID));
  const members = await t.database.db
    .select({ id: s.officeMembers.mdOfficeId })
    .from(s.officeMembers)
    .where(eq(s.officeMembers.mdStaffId, user?.mdStaffId as string));
  officeIds = [...new Set([user?.mdOfficeId as string, ...members.map((m) => m.id)])];
});
afterAll(() => t.close());

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
async function rxList(query: string, tokens: Tokens = morgan) {
  return injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v1/users/${tokens.userID}/rx-list?${query}` });
}
async function ids(query: string) {
  const res = await rxList(query);
  expect(res.statusCode).toBe(200);
  return rxListResponseSchema
    .parse(res.json())
    .map((r) => r.id)
    .sort();
}
/** Every prescription of Dr Morgan's offices, with what the filters read. */
async function mine() {
  return t.database.db
    .select({
      id: s.prescriptions.id,
      prescriberId: s.prescriptions.prescriberId,
      prescribedAt: s.prescriptions.prescribedAt,
      ndc: s.prescriptions.prescribedNdc,
      prescriberCreated: s.mdStaff.createdAt,
    })
    .from(s.prescriptions)
    .innerJoin(s.mdStaff, eq(s.mdStaff.id, s.prescriptions.prescriberId))
    .where(inArray(s.prescriptions.mdOfficeId, officeIds));
}
const dayOf = (d: Date) => iso(d);
const inRange = (d: Date, start: string, end: string) => dayOf(d) >= start && dayOf(d) <= end;

describe('GET /api/mdo/v1/users/{userId}/rx-list', () => {
  const start = iso(new Date(TEST_NOW.getTime() - 30 * DAY));
  const end = iso(TEST_NOW);

  it('answers every prescription of the user’s offices prescribed in the range, both days included, with every field', async () => {
    const rows = await mine();
    const expected = rows
      .filter((r) => inRange(r.prescribedAt, start, end))
      .map((r) => r.id)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(await ids(`startdate=${start}&enddate=${end}&selectedFilter=none`)).toEqual(expected);
    const res = await rxList(`startdate=${start}&enddate=${end}`);
    const [row] = rxListResponseSchema.parse(res.json());
    expect(row?.prescribedDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
    expect(row?.patientDob).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row?.prescriberCreatedDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
  });

  it('a single day range includes the whole day', async () => {
    const rows = await mine();
    const day = dayOf(rows[0]?.prescribedAt as Date);
    const expected = rows
      .filter((r) => dayOf(r.prescribedAt) === day)
      .map((r) => r.id)
      .sort();
    expect(await ids(`startdate=${day}&enddate=${day}`)).toEqual(expected);
  });

  it('bausch and tolsura: prescriptions of those product lines only', async () => {
    const products = await t.database.db.select().from(s.drugProducts);
    const line = new Map(products.map((p) => [p.ndc, p.productLine]));
    const rows = (await mine()).filter((r) => inRange(r.prescribedAt, start, end));
    for (const filter of ['bausch', 'tolsura'] as const) {
      const expected = rows
        .filter((r) => line.get(r.ndc ?? '') === filter)
        .map((r) => r.id)
        .sort();
      expect(await ids(`startdate=${start}&enddate=${end}&selectedFilter=${filter}`), filter).toEqual(expected);
    }
  });

  it('newMDs: prescribers whose record was created in the last 90 days', async () => {
    const rows = (await mine()).filter((r) => inRange(r.prescribedAt, start, end));
    const cutoff = iso(new Date(TEST_NOW.getTime() - 90 * DAY));
    const expected = rows
      .filter((r) => dayOf(r.prescriberCreated) >= cutoff)
      .map((r) => r.id)
      .sort();
    expect(await ids(`startdate=${start}&enddate=${end}&selectedFilter=newMDs`)).toEqual(expected);
  });

  it('winBackMDs: prescribers with nothing in the 180 days before the range', async () => {
    const all = await t.database.db
      .select({ prescriberId: s.prescriptions.prescriberId, prescribedAt: s.prescriptions.prescribedAt })
      .from(s.prescriptions);
    const recentStart = iso(new Date(TEST_NOW.getTime() - 2 * DAY));
    const quietFrom = iso(new Date(new Date(`${recentStart}T00:00:00Z`).getTime() - 180 * DAY));
    const active = new Set(
      all.filter((r) => dayOf(r.prescribedAt) >= quietFrom && dayOf(r.prescribedAt) < recentStart).map((r) => r.prescriberId),
    );
    const rows = (await mine()).filter((r) => inRange(r.prescribedAt, recentStart, end));
    const expected = rows
      .filter((r) => !active.has(r.prescriberId))
      .map((r) => r.id)
      .sort();
    expect(await ids(`startdate=${recentStart}&enddate=${end}&selectedFilter=winBackMDs`)).toEqual(expected);
    // A prescriber with a fresh first prescription is a win-back: make one and see it listed.
    const [staff] = await t.database.db
      .insert(s.mdStaff)
      .values({
        tenantId: (await t.database.db.select().from(s.tenants).where(eq(s.tenants.key, 'main')))[0]?.id as string,
        firstName: 'Wyn',
        lastName: 'Back',
        role: 'MD',
      })
      .returning();
    const [patient] = await t.database.db
      .select()
      .from(s.patients)
      .where(eq(s.patients.mdOfficeId, officeIds[0] as string))
      .limit(1);
    const [rx] = await t.database.db
      .insert(s.prescriptions)
      .values({
        patientId: patient?.id as string,
        prescriberId: staff?.id as string,
        mdOfficeId: officeIds[0] as string,
        drugName: 'Metformin',
        prescribedAt: new Date(TEST_NOW.getTime() - 3_600_000),
      })
      .returning();
    expect(await ids(`startdate=${recentStart}&enddate=${end}&selectedFilter=winBackMDs`)).toContain(rx?.id);
  });

  it('another user sees only their own offices', async () => {
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const res = await rxList(`startdate=${start}&enddate=${end}`, staff);
    const listed = rxListResponseSchema.parse(res.json()).map((r) => r.id);
    const offices = await t.database.db
      .select({ office: s.prescriptions.mdOfficeId })
      .from(s.prescriptions)
      .where(inArray(s.prescriptions.id, listed.length > 0 ? listed : ['00000000-0000-4000-8000-000000000000']));
    const [lee] = await t.database.db.select().from(s.users).where(eq(s.users.email, 'staff.lee@demo.hcp'));
    for (const o of offices) expect(o.office).toBe(lee?.mdOfficeId);
  });

  it.each([
    ['a malformed date', 'startdate=2026-13-01&enddate=2026-11-20', 'querystring.startdate'],
    ['a US-style date', 'startdate=11/01/2026&enddate=2026-11-20', 'querystring.startdate'],
    ['a missing end', 'startdate=2026-11-01', 'querystring.enddate'],
    ['start after end', 'startdate=2026-11-20&enddate=2026-11-01', 'querystring.enddate'],
    ['a range over a year', 'startdate=2025-11-19&enddate=2026-11-20', 'querystring.enddate'],
    ['an unknown filter', 'startdate=2026-11-01&enddate=2026-11-20&selectedFilter=everything', 'querystring.selectedFilter'],
  ])('refuses %s with 400 and says which field', async (_name, query, path) => {
    const res = await rxList(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(errorPaths(res)).toContain(path);
  });

  it('accepts exactly one year, and refuses another user’s list and a missing session', async () => {
    expect((await rxList('startdate=2025-11-20&enddate=2026-11-20')).statusCode).toBe(200);
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const other = await injectAs(t.app, morgan, {
      method: 'GET',
      url: `/api/mdo/v1/users/${staff.userID}/rx-list?startdate=${start}&enddate=${end}`,
    });
    expect(other.statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/mdo/v1/users/${morgan.userID}/rx-list?startdate=${start}&enddate=${end}`,
    });
    expect(anonymous.statusCode).toBe(401);
    const audits = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'rx-list.read'), eq(s.auditLog.actorUserId, morgan.userID)));
    expect(audits.length).toBeGreaterThan(0);
  });
});
