/** New Comments: unread list and counts, thread, replies, read marks (idempotent, scoped). */
import { commentThreadSchema, doctorListSearchResponseSchema, generateRequestId, type Tokens } from '@hcp/contract';
import { and, eq, inArray, isNotNull, isNull, notInArray } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let morgan: Tokens;
let officeIds: string[];
beforeAll(async () => {
  t = await buildTestApp();
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  const [user] = await t.database.db.select().from(s.users).where(eq(s.users.id, morgan.userID));
  const members = await t.database.db
    .select({ id: s.officeMembers.mdOfficeId })
    .from(s.officeMembers)
    .where(eq(s.officeMembers.mdStaffId, user?.mdStaffId as string));
  officeIds = [...new Set([user?.mdOfficeId as string, ...members.map((m) => m.id)])];
});
afterAll(() => t.close());

const list = async () => {
  const res = await injectAs(t.app, morgan, {
    method: 'GET',
    url: `/api/mdo/v2/users/${morgan.userID}/doctor-list-search?newComments=true`,
  });
  expect(res.statusCode).toBe(200);
  return doctorListSearchResponseSchema.parse(res.json());
};
const send = (method: 'POST' | 'PUT', url: string, payload: unknown, requestId = generateRequestId()) =>
  injectAs(t.app, morgan, { method, url, payload: payload as InjectOptions['payload'], headers: { 'x-request-id': requestId } });
const threadOf = async (patientId: string) => {
  const res = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/patients/${patientId}/all-rx-comment` });
  expect(res.statusCode).toBe(200);
  return commentThreadSchema.parse(res.json());
};
const unreadInScope = () =>
  t.database.db
    .select({ id: s.commentMentions.id })
    .from(s.commentMentions)
    .where(and(inArray(s.commentMentions.mdOfficeId, officeIds), isNull(s.commentMentions.readAt)));

describe('new comments', () => {
  it('lists doctors with their patients that have unread comments; the total counts every unread mention', async () => {
    const answer = await list();
    expect(answer.total).toBe((await unreadInScope()).length);
    expect(answer.total).toBeGreaterThan(0);
    const sum = answer.doctors.flatMap((d) => d.patients).reduce((n, p) => n + p.unreadCount, 0);
    expect(sum).toBe(answer.total);
  });

  it('shows a thread oldest first with the unread mentions, and marking them read lowers the count, once', async () => {
    const before = await list();
    const patient = before.doctors[0]?.patients[0] as { id: string; unreadCount: number };
    const thread = await threadOf(patient.id);
    const times = thread.records.map((r) => r.createdAt);
    expect([...times].sort()).toEqual(times);
    const mentionIds = thread.records.flatMap((r) => (r.mentionId ? [r.mentionId] : []));
    expect(mentionIds).toHaveLength(patient.unreadCount);

    const url = `/api/mdo/v1/users/${morgan.userID}/office-mentions`;
    const first = await send('PUT', url, { mentionIds });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'SUCCESS', marked: mentionIds.length });
    const again = await send('PUT', url, { mentionIds });
    expect(again.json()).toEqual({ status: 'SUCCESS', marked: 0 });
    const after = await list();
    expect(after.total).toBe(before.total - mentionIds.length);
    expect(after.doctors.flatMap((d) => d.patients).map((p) => p.id)).not.toContain(patient.id);
    expect((await threadOf(patient.id)).records.every((r) => !r.unread)).toBe(true);
  });

  it('names whose thread it is (name, date of birth) and the medication each comment is about', async () => {
    const [row] = await t.database.db
      .select({ patientId: s.comments.patientId, rxId: s.comments.prescriptionId })
      .from(s.comments)
      .innerJoin(s.patients, eq(s.patients.id, s.comments.patientId))
      .where(and(inArray(s.patients.mdOfficeId, officeIds), isNotNull(s.comments.prescriptionId)))
      .limit(1);
    if (!row) throw new Error('the seed has no comment about a prescription of Dr. Morgan’s practices');
    const [patient] = await t.database.db.select().from(s.patients).where(eq(s.patients.id, row.patientId));
    const [rx] = await t.database.db
      .select()
      .from(s.prescriptions)
      .where(eq(s.prescriptions.id, row.rxId as string));
    const thread = await threadOf(row.patientId);
    expect(thread.patient).toEqual({
      id: patient?.id,
      firstName: patient?.firstName,
      lastName: patient?.lastName,
      dob: patient?.dob,
    });
    expect(thread.records.map((r) => r.medication)).toContain([rx?.drugName, rx?.strength].filter(Boolean).join(' '));
  });

  it('refuses mention ids of another office with 404 and marks nothing', async () => {
    const [foreign] = await t.database.db
      .select({ id: s.commentMentions.id })
      .from(s.commentMentions)
      .where(and(notInArray(s.commentMentions.mdOfficeId, officeIds), isNull(s.commentMentions.readAt)))
      .limit(1);
    const [mine] = await unreadInScope();
    const res = await send('PUT', `/api/mdo/v1/users/${morgan.userID}/office-mentions`, { mentionIds: [mine?.id, foreign?.id] });
    expect(res.statusCode).toBe(404);
    const [still] = await t.database.db
      .select()
      .from(s.commentMentions)
      .where(eq(s.commentMentions.id, mine?.id as string));
    expect(still?.readAt).toBeNull();
  });

  it('posts a reply (checked for emptiness and length), once per request id', async () => {
    const [patient] = await t.database.db.select().from(s.patients).where(inArray(s.patients.mdOfficeId, officeIds)).limit(1);
    const url = `/api/mdo/v1/users/${morgan.userID}/rx-comment`;
    for (const comment of ['', '   ', 'x'.repeat(2001)]) {
      const bad = await send('POST', url, { patientId: patient?.id, comment });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details[0].path).toBe('body.comment');
    }
    const requestId = generateRequestId();
    const ok = await send('POST', url, { patientId: patient?.id, comment: 'We sent the refill today.' }, requestId);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'SUCCESS',
      comment: { body: 'We sent the refill today.', authorName: 'Dr. Alex Morgan' },
    });
    const replay = await send('POST', url, { patientId: patient?.id, comment: 'We sent the refill today.' }, requestId);
    expect(replay.json()).toEqual(ok.json());
    const rows = await t.database.db
      .select()
      .from(s.comments)
      .where(and(eq(s.comments.patientId, patient?.id as string), eq(s.comments.body, 'We sent the refill today.')));
    expect(rows).toHaveLength(1);
    expect((await threadOf(patient?.id as string)).records.at(-1)?.body).toBe('We sent the refill today.');
  });

  it('keeps other offices’ patients out: thread and reply are 404', async () => {
    const [foreign] = await t.database.db.select().from(s.patients).where(notInArray(s.patients.mdOfficeId, officeIds)).limit(1);
    const thread = await injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/patients/${foreign?.id}/all-rx-comment` });
    expect(thread.statusCode).toBe(404);
    const reply = await send('POST', `/api/mdo/v1/users/${morgan.userID}/rx-comment`, {
      patientId: foreign?.id,
      comment: 'hello',
    });
    expect(reply.statusCode).toBe(404);
  });
});
