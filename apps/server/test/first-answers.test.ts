/**
 * GET first-answers (decision 0068): a landing screen's shell requests answered in one response. Each part must be
 * exactly what its route answers alone (the list of parts is the contract's `shellRequestsFor`, the same list the
 * client asks for), with that route's own audit rows, and nothing outside the caller's reach.
 */
import {
  firstAnswersApiPath,
  firstAnswersResponseSchema,
  LANDING_ROUTES,
  ROUTES,
  RX_LIST_DEFAULT_FILTER,
  shellRequestsFor,
  type Tokens,
} from '@hcp/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { errorPaths } from './support/errors.ts';

let t: TestApp;
let morgan: Tokens;
let lee: Tokens;
beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  lee = await signIn(t.app, 'staff.lee@demo.hcp');
});
afterAll(() => t.close());

const iso = (d: Date) => d.toISOString().slice(0, 10);
const opening = { startdate: iso(new Date(TEST_NOW.getTime() - 86_400_000)), enddate: iso(TEST_NOW) };

function firstAnswers(tokens: Tokens, query: Record<string, string>, userId = tokens.userID, remoteAddress?: string) {
  return injectAs(t.app, tokens, {
    method: 'GET',
    url: { pathname: firstAnswersApiPath(userId), query },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

const screenQuery = (screen: string) => (screen === ROUTES.rxList ? { screen, ...opening } : { screen });

describe('GET /api/mdo/v1/users/{userId}/first-answers', () => {
  for (const screen of LANDING_ROUTES) {
    it(`answers ${screen}'s shell requests, in order, each as its route answers alone`, async () => {
      for (const who of [morgan, lee]) {
        const res = await firstAnswers(who, screenQuery(screen));
        expect(res.statusCode).toBe(200);
        const { answers } = firstAnswersResponseSchema.parse(res.json());
        const requests = shellRequestsFor(
          screen,
          who.userID,
          screen === ROUTES.rxList ? { ...opening, selectedFilter: RX_LIST_DEFAULT_FILTER } : undefined,
        );
        expect(answers).toHaveLength(requests.length);
        // The Rx list's screen has its list among them; the others do not.
        expect(requests.some((r) => r.path.endsWith('/rx-list'))).toBe(screen === ROUTES.rxList);
        for (const [index, { path, query }] of requests.entries()) {
          const alone = await injectAs(t.app, who, {
            method: 'GET',
            url: { pathname: path, query },
          });
          expect(alone.statusCode).toBe(200);
          expect(answers[index]).toEqual({ status: alone.statusCode, body: alone.json() });
        }
      }
    });
  }

  it('writes each part’s own audit row, with the caller’s address', async () => {
    const rxReads = () =>
      t.database.db
        .select({ ip: s.auditLog.ip, details: s.auditLog.details })
        .from(s.auditLog)
        .where(and(eq(s.auditLog.actorUserId, morgan.userID), eq(s.auditLog.action, 'rx-list.read')));
    const before = (await rxReads()).length;
    const res = await firstAnswers(morgan, screenQuery(ROUTES.rxList), morgan.userID, '203.0.113.7');
    expect(res.statusCode).toBe(200);
    const after = await rxReads();
    expect(after).toHaveLength(before + 1);
    expect(after.filter((row) => row.ip === '203.0.113.7')).toEqual([
      { ip: '203.0.113.7', details: expect.objectContaining({ start: opening.startdate, end: opening.enddate }) },
    ]);
  });

  it('is 404 for another user’s id and 401 without a session, and asks for none of its parts', async () => {
    // A refusal may be audited as one (access.denied); no part's read is.
    const audited = async () =>
      (await t.database.db.select({ action: s.auditLog.action }).from(s.auditLog))
        .map((row) => row.action)
        .filter((action) => action.endsWith('.read')).length;
    const before = await audited();
    expect((await firstAnswers(morgan, screenQuery(ROUTES.actionNeeded), lee.userID)).statusCode).toBe(404);
    const signedOut = await t.app.inject({
      method: 'GET',
      url: { pathname: firstAnswersApiPath(morgan.userID), query: { screen: ROUTES.actionNeeded } },
    });
    expect(signedOut.statusCode).toBe(401);
    const badToken = await firstAnswers({ ...morgan, accessToken: `${morgan.accessToken}x` }, { screen: ROUTES.actionNeeded });
    expect(badToken.statusCode).toBe(401);
    expect(await audited()).toBe(before);
  });

  it('refuses a screen that is not a landing screen, and a window that does not fit the screen', async () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ screen: '/manage-comms' }, ['querystring.screen']],
      [{ screen: '/login' }, ['querystring.screen']],
      [{}, ['querystring.screen']],
      [{ screen: ROUTES.rxList }, ['querystring.startdate']],
      [{ screen: ROUTES.rxList, startdate: opening.startdate }, ['querystring.startdate']],
      [{ screen: ROUTES.actionNeeded, ...opening }, ['querystring.startdate']],
      [{ screen: ROUTES.rxList, startdate: '2026-02-30', enddate: opening.enddate }, ['querystring.startdate']],
      [{ screen: ROUTES.rxList, startdate: opening.enddate, enddate: opening.startdate }, ['querystring.enddate']],
    ];
    for (const [query, paths] of cases) {
      const res = await firstAnswers(morgan, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(errorPaths(res), JSON.stringify(query)).toEqual(paths);
    }
  });
});
