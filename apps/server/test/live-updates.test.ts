/**
 * Live updates (issue 20): a signed-in user's event stream says `items` when their practices' items change (a
 * decision, a pharmacy's Task, a patient's message) and carries nothing else; another practice's user hears
 * nothing; the provider's users (no patient scope) hear nothing; wrong callers get 401/404/406.
 */
import type { AddressInfo } from 'node:net';
import { generateRequestId } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { postponeDate, refillRequests } from './support/action-needed.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { openLiveStream, type Stream } from './support/live-stream.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const until = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return check();
};

describe('live updates', () => {
  it('tells the practice’s people that items changed, pushed by the decision, and nobody else', async () => {
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    // Another practice's prescriber (signed in without the e-mailed code here).
    await t.database.db.update(s.users).set({ mfaEnabled: false }).where(eq(s.users.email, 'dr.patel@demo.hcp'));
    const patel = await signIn(t.app, 'dr.patel@demo.hcp');
    const admin = await signIn(t.app, 'admin@demo.hcp');
    const streams = {
      morgan: await openLiveStream(base, morgan),
      lee: await openLiveStream(base, lee),
      admin: await openLiveStream(base, admin),
      patel: await openLiveStream(base, patel),
    };
    try {
      for (const s of Object.values(streams))
        expect(await until(() => s.events.some((e) => e.event === 'ready'), 2000)).toBe(true);
      expect(JSON.parse(streams.admin.events[0]?.data ?? '{}')).toEqual({ practices: 0 });

      const rx = (await refillRequests(t.app, morgan))[0]?.prescription.id;
      const res = await injectAs(t.app, morgan, {
        method: 'POST',
        url: `/api/mdo/v1/prescriptions/${rx}/refills-postponed`,
        payload: {
          refillPostponedToDate: postponeDate(),
          senderName: 'Dr Morgan',
        },
        headers: { 'x-request-id': generateRequestId() },
      });
      expect(res.statusCode).toBe(200);
      const items = (s: Stream) => s.events.filter((e) => e.event === 'items');
      // Decided by the events themselves: the hub has no poll, so an event at all was pushed by the decision's
      // NOTIFY (issue 44: no wall-clock bound here; the test's own time-out is the limit).
      expect(await until(() => items(streams.morgan).length > 0 && items(streams.lee).length > 0, 20_000)).toBe(true);
      // One event for the burst, and nothing in it but the fact (and its id).
      expect(items(streams.morgan)).toEqual([{ event: 'items', data: '{"changed":true}', id: expect.stringMatching(/^\d+$/) }]);
      await new Promise((r) => setTimeout(r, 500));
      expect(items(streams.admin)).toEqual([]);
      expect(items(streams.patel)).toEqual([]);
    } finally {
      for (const s of Object.values(streams)) s.close();
    }
  });

  it('answers 401 signed out, 404 for another user’s stream and 406 to a caller that does not ask for a stream', async () => {
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const lee = await signIn(t.app, 'staff.lee@demo.hcp');
    const url = (id: string) => `/api/mdo/v1/users/${id}/live-updates`;
    const accept = { accept: 'text/event-stream' };
    expect((await t.app.inject({ method: 'GET', url: url(morgan.userID), headers: accept })).statusCode).toBe(401);
    expect((await injectAs(t.app, morgan, { method: 'GET', url: url(lee.userID), headers: accept })).statusCode).toBe(404);
    const plain = await injectAs(t.app, morgan, { method: 'GET', url: url(morgan.userID) });
    expect(plain.statusCode).toBe(406);
    expect(plain.json().error.code).toBe('NOT_ACCEPTABLE');
  });

  it('tells a reconnecting stream to refetch when a change came while it was away, and only then', async () => {
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const ready = (s: Stream) => until(() => s.events.some((e) => e.event === 'ready'), 5_000);
    const first = await openLiveStream(base, morgan);
    expect(await ready(first)).toBe(true);
    const heard = first.events[0]?.id as string;
    expect(heard).toMatch(/^\d+$/);
    first.close();

    // While the stream is away, a decision changes Dr Morgan's practice.
    const rx = (await refillRequests(t.app, morgan))[1]?.prescription.id;
    const decided = await injectAs(t.app, morgan, {
      method: 'POST',
      url: `/api/mdo/v1/prescriptions/${rx}/refills-postponed`,
      payload: { refillPostponedToDate: postponeDate(), senderName: 'Dr Morgan' },
      headers: { 'x-request-id': generateRequestId() },
    });
    expect(decided.statusCode).toBe(200);
    const back = await openLiveStream(base, morgan, heard);
    try {
      expect(await until(() => back.events.length >= 2, 5_000)).toBe(true);
      expect(back.events.map((e) => [e.event, e.data])).toEqual([
        ['ready', '{"practices":1}'],
        ['items', '{"changed":true,"resync":true}'],
      ]);
    } finally {
      back.close();
    }

    // An id later than every change (a clock ahead by more than the skew allowed) and ids that are not ours: no
    // refetch asked for, the stream opens all the same. Decided by events: a decision made after `ready` is heard,
    // and a resync would have come before it.
    const requests = await refillRequests(t.app, morgan);
    for (const [index, id] of [String(Date.now() + 60_000), 'abc', '1'.repeat(16)].entries()) {
      const again = await openLiveStream(base, morgan, id);
      try {
        expect(await ready(again)).toBe(true);
        const res = await injectAs(t.app, morgan, {
          method: 'POST',
          url: `/api/mdo/v1/prescriptions/${requests[index]?.prescription.id}/refills-postponed`,
          payload: { refillPostponedToDate: postponeDate(), senderName: 'Dr Morgan' },
          headers: { 'x-request-id': generateRequestId() },
        });
        expect(res.statusCode).toBe(200);
        expect(await until(() => again.events.some((e) => e.event === 'items'), 20_000)).toBe(true);
        expect(
          again.events.map((e) => e.data),
          `last-event-id ${id}`,
        ).toEqual(['{"practices":1}', '{"changed":true}']);
      } finally {
        again.close();
      }
    }
  });
});
