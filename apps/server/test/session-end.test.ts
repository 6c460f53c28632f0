/**
 * Derived credentials die with their session (issue 42; decision 0048). A signed-in user's session hands out an
 * appeal token (the portal's appeal-auth), a live-update stream and undo request ids; each way a session family
 * ends — logout, refresh-token reuse, a password change made elsewhere, the account disabled, its role changed,
 * its practice taken away — must leave every one of them refused: the appeal token 404, the stream closed within
 * 5 s, the undo 404 (also from a new session of the same person, after the account is restored).
 *
 * Prints "session end: N of N cells".
 */
import type { AddressInfo } from 'node:net';
import { APPEAL_TOKEN_HEADER, generateRequestId, type Tokens } from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { DEMO_PASSWORD } from '../src/seed/index.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { authHeaders, injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let base: string;
let admin: Tokens;
const LEE = 'staff.lee@demo.hcp';
let lee: { id: string; staffId: string; officeId: string; role: string; userType: string; mfaEnabled: boolean };
let appealRx: string;
const tally = { cells: 0, refused: 0 };
const STREAM_DEADLINE_MS = 5_000;

beforeAll(async () => {
  // An undo window, so decisions are held and offer an undo; sessions are checked every 500 ms here.
  t = await buildTestApp({ env: { UNDO_WINDOW_SECONDS: '300', LIVE_SESSION_CHECK_MS: '500' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await signIn(t.app, 'admin@demo.hcp');
  const [row] = await t.database.db.select().from(s.users).where(eq(s.users.email, LEE));
  lee = {
    id: row?.id as string,
    staffId: row?.mdStaffId as string,
    officeId: row?.mdOfficeId as string,
    role: row?.role as string,
    userType: row?.userType as string,
    mfaEnabled: row?.mfaEnabled as boolean,
  };
  // An appeal of the practice waiting for its prescriber: Lee opens it to prepare it (issue 23).
  const [rx] = await t.database.db
    .select({ id: s.prescriptions.id })
    .from(s.prescriptions)
    .where(and(eq(s.prescriptions.hcpActionRequired, true), eq(s.prescriptions.mdOfficeId, lee.officeId)))
    .limit(1);
  appealRx = rx?.id as string;
});
afterAll(async () => {
  process.stdout.write(`\nsession end: ${tally.refused} of ${tally.cells} cells refused after the session ended\n`);
  await t.close();
});

/** An open live-update stream; `ended` settles when the server closes it. */
async function openStream(tokens: Tokens) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/mdo/v1/users/${tokens.userID}/live-updates`, {
    headers: { ...authHeaders(tokens), accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body?.getReader();
  const ended = (async () => {
    try {
      for (;;) if ((await reader?.read())?.done !== false) return true;
    } catch {
      return false; // aborted by the test
    }
  })();
  return { ended, abort: () => controller.abort() };
}

/** Whether `promise` settles with true within `ms` (the stream's close is the event; the deadline only bounds it). */
const within = (promise: Promise<boolean>, ms: number) =>
  Promise.race([promise, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);

async function appealToken(tokens: Tokens) {
  const res = await injectAs(t.app, tokens, {
    method: 'POST',
    url: `/api/mdo/v1/users/${tokens.userID}/appeal-auth`,
    payload: { prescriptionId: appealRx },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { token: string; appeal: { id: string } };
}
const readAppeal = (appeal: { token: string; appeal: { id: string } }) =>
  t.app.inject({
    method: 'GET',
    url: `/api/mdo/v1/appeal/${appeal.appeal.id}`,
    headers: { [APPEAL_TOKEN_HEADER]: appeal.token },
  });

const taken = new Set<string>();
/** Dismisses one of the practice's open prior-auth notices as Lee; the decision's request id is its undo id. */
async function undoableDecision(tokens: Tokens): Promise<string> {
  const queue = await injectAs(t.app, tokens, {
    method: 'GET',
    url: `/api/mdo/v2/users/${tokens.userID}/action-queue?category=priorAuth`,
  });
  for (const item of (queue.json() as { items: { id: string }[] }).items) {
    if (taken.has(item.id)) continue;
    taken.add(item.id);
    const requestId = generateRequestId();
    const res = await injectAs(t.app, tokens, {
      method: 'POST',
      url: '/api/mdo/v1/prescriptions/all/prior-auth/dismiss',
      payload: { prescriptionIds: [item.id] },
      headers: { 'x-request-id': requestId },
    });
    if (res.statusCode === 200 && res.json().undo?.requestId === requestId) return requestId;
  }
  throw new Error('the demo practice has no prior-auth notice left to dismiss');
}
const undo = (tokens: Tokens, requestId: string) =>
  injectAs(t.app, tokens, { method: 'POST', url: `/api/mdo/v1/decisions/${requestId}/undo` });

const accountUpdate = (changes: Record<string, unknown>) =>
  injectAs(t.app, admin, {
    method: 'PUT',
    url: `/api/mdo/v1/accounts/${lee.id}`,
    payload: { role: lee.role, mfaEnabled: lee.mfaEnabled, disabled: false, ...changes },
  });

/** Each way a session ends, and how the account is put back for the next. */
const WAYS: Record<string, { end: (session: Tokens) => Promise<void>; restore?: () => Promise<void> }> = {
  logout: {
    end: async (session) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        payload: { userId: session.userID, accessToken: session.accessToken, refreshToken: session.refreshToken },
      });
      expect(res.statusCode).toBe(200);
    },
  },
  'refresh-token reuse': {
    end: async (session) => {
      // The token was rotated an hour ago (past the grace for racing tabs): using it now is theft; the family ends.
      await t.database.db
        .update(s.refreshTokens)
        .set({ rotatedAt: sql`now() - interval '1 hour'` })
        .where(eq(s.refreshTokens.tokenHash, sha256(session.refreshToken)));
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth-service/refresh',
        payload: { refreshToken: session.refreshToken },
      });
      expect(res.statusCode).toBe(401);
    },
  },
  'password changed in another session': {
    end: async () => {
      const other = await signIn(t.app, LEE);
      const change = (currentPassword: string, newPassword: string) =>
        injectAs(t.app, other, {
          method: 'POST',
          url: `/api/mdo/v1/users/${other.userID}/update-password`,
          payload: { currentPassword, newPassword },
        });
      expect((await change(DEMO_PASSWORD, 'session-end-password-1')).statusCode).toBe(200);
      expect((await change('session-end-password-1', DEMO_PASSWORD)).statusCode).toBe(200);
    },
  },
  'account disabled': {
    end: async () => expect((await accountUpdate({ disabled: true })).statusCode).toBe(200),
    restore: async () => expect((await accountUpdate({ disabled: false })).statusCode).toBe(200),
  },
  'role changed': {
    end: async () => expect((await accountUpdate({ role: 'provider.sales' })).statusCode).toBe(200),
    restore: async () => {
      await t.database.db.update(s.users).set({ role: lee.role, userType: lee.userType }).where(eq(s.users.id, lee.id));
    },
  },
  'practice removed': {
    end: async () => {
      const res = await injectAs(t.app, admin, {
        method: 'DELETE',
        url: `/api/mdo/v1/md-offices/${lee.officeId}/staff/${lee.staffId}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      // Taken off it, the person no longer reaches the practice at all, even signing in again.
      const [account] = await t.database.db.select().from(s.users).where(eq(s.users.id, lee.id));
      expect(account?.mdOfficeId).toBeNull();
    },
    restore: async () => {
      await t.database.db
        .insert(s.officeMembers)
        .values({ mdOfficeId: lee.officeId, mdStaffId: lee.staffId })
        .onConflictDoNothing();
      await t.database.db.update(s.users).set({ mdOfficeId: lee.officeId }).where(eq(s.users.id, lee.id));
    },
  },
};

describe('derived credentials end with their session', () => {
  it('a live session keeps them: the appeal reads, the stream stays open, its own undo works', async () => {
    const session = await signIn(t.app, LEE);
    const appeal = await appealToken(session);
    expect((await readAppeal(appeal)).statusCode).toBe(200);
    const stream = await openStream(session);
    const requestId = await undoableDecision(session);
    expect((await undo(session, requestId)).statusCode).toBe(200);
    // Two session checks later the stream is still open.
    expect(await within(stream.ended, 1_200)).toBe(false);
    stream.abort();
  });

  for (const [way, { end, restore }] of Object.entries(WAYS)) {
    it(`${way}: the appeal token is refused, the stream closes within 5 s, the undo is refused`, async () => {
      const session = await signIn(t.app, LEE);
      const appeal = await appealToken(session);
      const stream = await openStream(session);
      const requestId = await undoableDecision(session);

      await end(session);
      const closed = await within(stream.ended, STREAM_DEADLINE_MS);
      const appealAfter = (await readAppeal(appeal)).statusCode;
      await restore?.();
      // The person signs in again (a new session): what the ended one derived stays refused.
      const again = await signIn(t.app, LEE);
      const undoAfter = await undo(again, requestId);
      const appealAfterRestore = (await readAppeal(appeal)).statusCode;

      const results = { closed, appealAfter, appealAfterRestore, undoAfter: undoAfter.statusCode };
      tally.cells += 3;
      tally.refused +=
        Number(closed) + Number(appealAfter === 404 && appealAfterRestore === 404) + Number(undoAfter.statusCode === 404);
      stream.abort();
      expect(results).toEqual({ closed: true, appealAfter: 404, appealAfterRestore: 404, undoAfter: 404 });
    });
  }

  it('a link-holder’s appeal token (NPI + key, no account) is no session’s: it keeps its own expiry', async () => {
    // The pharmacy's key for this appeal, as its message would carry it.
    const key = 'SESSIONEND1';
    await t.database.db
      .update(s.appeals)
      .set({ accessKeyHash: sha256(key), accessKeyExpiresAt: sql`now() + interval '1 day'` })
      .where(eq(s.appeals.prescriptionId, appealRx));
    const [prescriber] = await t.database.db
      .select({ npi: s.mdStaff.npi })
      .from(s.prescriptions)
      .innerJoin(s.mdStaff, eq(s.mdStaff.id, s.prescriptions.prescriberId))
      .where(eq(s.prescriptions.id, appealRx));
    const res = await t.app.inject({ method: 'POST', url: '/api/mdo/v1/appeal-auth', payload: { npi: prescriber?.npi, key } });
    expect(res.statusCode, res.body).toBe(200);
    const linkHolder = res.json() as { token: string; appeal: { id: string } };
    // Every practice session ending around it leaves it as it was.
    const session = await signIn(t.app, LEE);
    await WAYS.logout?.end(session);
    expect((await readAppeal(linkHolder)).statusCode).toBe(200);
  });
});
