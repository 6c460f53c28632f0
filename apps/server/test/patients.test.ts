/** All Patients: search by name, DOB and phone, paging, scope, detail, audit. */
import { patientDetailSchema, patientSearchResponseSchema, type Tokens } from '@hcp/contract';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';

let t: TestApp;
let morgan: Tokens;
let mine: (typeof s.patients.$inferSelect)[];
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
  mine = await t.database.db.select().from(s.patients).where(inArray(s.patients.mdOfficeId, officeIds));
});
afterAll(() => t.close());

async function search(searchText: string, extra = '') {
  const res = await injectAs(t.app, morgan, {
    method: 'GET',
    url: `/api/mdo/v1/users/${morgan.userID}/patients-search?searchText=${encodeURIComponent(searchText)}${extra}`,
  });
  expect(res.statusCode).toBe(200);
  return patientSearchResponseSchema.parse(res.json());
}
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

describe('patient search', () => {
  it('finds a patient by last and first name, any order, any case, by prefix', async () => {
    const p = mine[0] as (typeof mine)[number];
    for (const text of [
      `${p.lastName} ${p.firstName}`,
      `${p.firstName.toUpperCase()} ${p.lastName.toLowerCase()}`,
      `${p.lastName.slice(0, 3)} ${p.firstName.slice(0, 2)}`,
    ]) {
      const { records } = await search(text);
      expect(
        records.map((r) => r.id),
        text,
      ).toContain(p.id);
      for (const r of records) {
        const nameWords = `${r.firstName} ${r.lastName}`.toLowerCase().split(/[\s-]+/);
        for (const w of text.toLowerCase().split(' ')) expect(nameWords.some((n) => n.startsWith(w))).toBe(true);
      }
    }
  });

  it('finds a patient by any word of a name of several words, not by the middle of a word', async () => {
    const [row] = await t.database.db
      .insert(s.patients)
      .values({
        mdOfficeId: mine[0]?.mdOfficeId as string,
        firstName: 'Ana Maria',
        lastName: 'Lopez-Quintero',
        dob: '1961-03-04',
      })
      .returning({ id: s.patients.id });
    const id = row?.id as string;
    for (const text of ['Ana Maria Lopez', 'Maria Lopez', 'lopez maria', 'Quintero Ana', 'Lopez-Quint', 'mar quin']) {
      expect(
        (await search(text)).records.map((r) => r.id),
        text,
      ).toContain(id);
    }
    for (const text of ['aria lopez', 'Ana Quintana', 'uintero']) {
      expect(
        (await search(text)).records.map((r) => r.id),
        text,
      ).not.toContain(id);
    }
  });

  it('finds by date of birth typed as MM/DD/YYYY or MMDDYY, and by phone in any shape', async () => {
    const p = mine[1] as (typeof mine)[number];
    const expectedByDob = mine
      .filter((m) => m.dob === p.dob)
      .map((m) => m.id)
      .sort();
    const byDob = await search(usDate(p.dob));
    expect(byDob.records.map((r) => r.id).sort()).toEqual(expectedByDob);
    const mmddyy = `${p.dob.slice(5, 7)}${p.dob.slice(8, 10)}${p.dob.slice(2, 4)}`;
    expect((await search(mmddyy)).records.map((r) => r.id)).toContain(p.id);
    const phone = p.phoneNumbers[0] as string;
    const digits = phone.replace(/\D/g, '');
    for (const shape of [phone, digits, `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}`]) {
      expect(
        (await search(shape)).records.map((r) => r.id),
        shape,
      ).toContain(p.id);
    }
  });

  it('pages with offset and limit and reports the total', async () => {
    // The most common two-letter start of a last name among Dr Morgan's patients.
    const starts = new Map<string, number>();
    for (const m of mine) starts.set(m.lastName.slice(0, 2), (starts.get(m.lastName.slice(0, 2)) ?? 0) + 1);
    const letter = [...starts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
    const all = await search(letter, '&limit=100');
    expect(all.total).toBeGreaterThan(2);
    const first = await search(letter, '&offset=0&limit=2');
    const second = await search(letter, '&offset=2&limit=2');
    expect(first.total).toBe(all.total);
    expect(first.records).toHaveLength(2);
    expect([...first.records, ...second.records].map((r) => r.id)).toEqual(all.records.slice(0, 4).map((r) => r.id));
    const beyond = await search(letter, `&offset=${all.total}&limit=25`);
    expect(beyond.records).toEqual([]);
    expect(beyond.total).toBe(all.total);
  });

  it('never shows patients of other offices', async () => {
    const [foreign] = await t.database.db.select().from(s.patients).where(notInArray(s.patients.mdOfficeId, officeIds)).limit(1);
    const { records } = await search(`${foreign?.lastName} ${foreign?.firstName}`);
    expect(records.map((r) => r.id)).not.toContain(foreign?.id);
  });

  it('refuses too short or too long text, a bad limit, and another user’s path', async () => {
    for (const query of [
      'searchText=a',
      `searchText=${'x'.repeat(101)}`,
      'searchText=ab&limit=0',
      'searchText=ab&limit=500',
      'searchText=ab&offset=-1',
    ]) {
      const res = await injectAs(t.app, morgan, {
        method: 'GET',
        url: `/api/mdo/v1/users/${morgan.userID}/patients-search?${query}`,
      });
      expect(res.statusCode, query).toBe(400);
    }
    const staff = await signIn(t.app, 'staff.lee@demo.hcp');
    const other = await injectAs(t.app, morgan, {
      method: 'GET',
      url: `/api/mdo/v1/users/${staff.userID}/patients-search?searchText=ab`,
    });
    expect(other.statusCode).toBe(404);
  });

  it('audits each search without the search text', async () => {
    await search('zz-audit-probe');
    const rows = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'patients.search'), eq(s.auditLog.actorUserId, morgan.userID)));
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows.map((r) => r.details))).not.toContain('zz-audit-probe');
  });
});

describe('patient detail', () => {
  it('answers demographics and every prescription with its action fields, and audits the read', async () => {
    const p = mine[0] as (typeof mine)[number];
    const res = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/users/${morgan.userID}/patients/${p.id}` });
    expect(res.statusCode).toBe(200);
    const detail = patientDetailSchema.parse(res.json());
    expect(detail.patient).toMatchObject({ id: p.id, firstName: p.firstName, dob: p.dob });
    const rxCount = await t.database.db.select().from(s.prescriptions).where(eq(s.prescriptions.patientId, p.id));
    expect(detail.prescriptions).toHaveLength(rxCount.length);
    const audit = await t.database.db
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'patients.read'), eq(s.auditLog.entityId, p.id)));
    expect(audit).toHaveLength(1);
  });

  it('is 404 for a patient of another office and for a malformed id', async () => {
    const [foreign] = await t.database.db.select().from(s.patients).where(notInArray(s.patients.mdOfficeId, officeIds)).limit(1);
    for (const id of [foreign?.id, 'not-a-uuid']) {
      const res = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/users/${morgan.userID}/patients/${id}` });
      expect([404, 400]).toContain(res.statusCode);
      if (id === foreign?.id) expect(res.statusCode).toBe(404);
    }
  });
});
