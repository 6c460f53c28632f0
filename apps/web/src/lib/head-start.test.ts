import { firstAnswersApiPath, firstAnswersParts, isRequestId, LANDING_ROUTES, ROUTES } from '@hcp/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, EARLY_ANSWER_MS } from './api-client.ts';
import { markEntryStarted, startHeadStart, takeHeadStart } from './head-start.ts';
import { withQuery } from './request-shape.ts';
import { shellRequests } from './shell-requests.ts';
import { clearSession, saveSession } from './storage.ts';

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/**
 * A page as the head start sees it: its address and its fetch, which records each request. Its server answers the
 * first answers as ours does: the contract's shell requests for the screen and window asked, in order, each with
 * `part(url)` (by default a 200 naming the URL it stands for).
 */
function pageAt(
  pathname: string,
  part: (url: string) => { status: number; body: unknown } = (url) => ({ status: 200, body: { from: 'head start', url } }),
  answer: (parts: unknown) => Promise<Response> = async (parts) => json(parts),
) {
  const sent: { url: string; headers: Record<string, string> }[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(url), headers: (init?.headers ?? {}) as Record<string, string> });
    const { pathname: path, searchParams } = new URL(String(url), 'https://portal.test');
    const userId = decodeURIComponent(path.split('/')[5] ?? '');
    const requests = firstAnswersParts({ screen: '', ...Object.fromEntries(searchParams) }, userId);
    return answer({ answers: requests.map(({ path: p, query }) => part(withQuery(p, query))) });
  });
  const win = { location: { pathname }, fetch } as unknown as Window;
  return { win, sent };
}

/** The API client of the entry, on the same page: its own requests are recorded apart from the head start's. */
function entryClient() {
  const asked: string[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL) => {
    asked.push(String(url));
    return json({ from: 'entry', url: String(url) });
  });
  return { api: createApiClient({ fetch: fetch as typeof globalThis.fetch }), asked };
}

beforeEach(() => {
  saveSession({ accessToken: 'access-1', refreshToken: 'refresh-1', userID: 'user-1' });
});
afterEach(() => {
  delete window.__hcpHeadStart;
  vi.useRealTimers();
});

describe('the head start (decision 0066)', () => {
  it.each(LANDING_ROUTES)(
    'opened on %s, asks for what the shell will ask for in one request, signed in, and the entry takes every answer without asking again',
    async (route) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-12-05T10:00:00Z'));
      const { win, sent } = pageAt(route);
      startHeadStart(win);
      const expected = shellRequests(route, 'user-1').map(({ path, query }) => withQuery(path, query));
      const rxWindow = route === ROUTES.rxList ? { startdate: '2026-12-04', enddate: '2026-12-05' } : {};
      expect(sent.map((request) => request.url)).toEqual([
        withQuery(firstAnswersApiPath('user-1'), { screen: route, ...rxWindow }),
      ]);
      for (const { headers } of sent) {
        expect(headers.authorization).toBe('Bearer access-1');
        expect(headers['x-user-id']).toBe('user-1');
        expect(headers['x-app-source']).toBe('md-dashboard');
        expect(isRequestId(headers['x-request-id'])).toBe(true);
      }
      // The entry on the same page: it asks early for the same requests, built its own way, and takes the answers.
      window.__hcpHeadStart = win.__hcpHeadStart;
      const { api, asked } = entryClient();
      api.early(shellRequests(route, 'user-1'));
      for (const url of expected) await expect(api.request(url)).resolves.toEqual({ from: 'head start', url });
      expect(asked).toEqual([]);
      // Each answer stands in once: the next ask is the entry's own.
      await expect(api.request(expected[0] as string)).resolves.toMatchObject({ from: 'entry' });
    },
  );

  it('sends nothing on a page that is not a landing screen, without a session, or once the entry has started', () => {
    for (const pathname of [ROUTES.login, ROUTES.preferences, '/rx-list/', `${ROUTES.actionNeeded}/x/REFILL_AUTH`]) {
      const { win, sent } = pageAt(pathname);
      startHeadStart(win);
      expect(sent, pathname).toEqual([]);
      expect(win.__hcpHeadStart, pathname).toBeUndefined();
    }

    clearSession();
    const signedOut = pageAt(ROUTES.actionNeeded);
    startHeadStart(signedOut.win);
    expect(signedOut.sent).toEqual([]);

    saveSession({ accessToken: 'access-1', refreshToken: 'refresh-1', userID: 'user-1' });
    const late = pageAt(ROUTES.actionNeeded);
    markEntryStarted(late.win);
    startHeadStart(late.win);
    expect(late.sent).toEqual([]);
    expect(late.win.__hcpHeadStart).toBeNull();
  });

  it('hands its answers over once, and only to the session that sent them', () => {
    const { win } = pageAt(ROUTES.actionNeeded);
    startHeadStart(win);
    expect(takeHeadStart('access-2', win)).toBeUndefined();
    // Refused for another session, it is gone: a later ask with the first token finds nothing either.
    expect(takeHeadStart('access-1', win)).toBeUndefined();

    const again = pageAt(ROUTES.actionNeeded);
    startHeadStart(again.win);
    expect(Object.keys(takeHeadStart('access-1', again.win)?.answers ?? {})).toHaveLength(
      shellRequests(ROUTES.actionNeeded, 'user-1').length,
    );
    expect(takeHeadStart('access-1', again.win)).toBeUndefined();
  });

  it('is not taken by another session: the entry asks for itself', async () => {
    const { win } = pageAt(ROUTES.actionNeeded);
    startHeadStart(win);
    window.__hcpHeadStart = win.__hcpHeadStart;
    saveSession({ accessToken: 'access-2', refreshToken: 'refresh-2', userID: 'user-1' });
    const { api, asked } = entryClient();
    const requests = shellRequests(ROUTES.actionNeeded, 'user-1');
    api.early(requests);
    expect(asked).toEqual(requests.map(({ path, query }) => withQuery(path, query)));
  });

  it("keeps the time it was sent: an answer older than the client's early limit is asked again", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { win } = pageAt(ROUTES.newComments);
    startHeadStart(win);
    window.__hcpHeadStart = win.__hcpHeadStart;
    vi.setSystemTime(Date.now() + EARLY_ANSWER_MS + 1);
    const { api, asked } = entryClient();
    const [first] = shellRequests(ROUTES.newComments, 'user-1');
    if (!first) throw new Error('no request');
    api.early([first]);
    await expect(api.request(first.path)).resolves.toMatchObject({ from: 'entry' });
    expect(asked).toEqual([first.path]);
  });
  it("passes each part's status on: a refusal reads as if the client had asked alone", async () => {
    const refused = { error: { code: 'NOT_FOUND', message: 'No such user.', details: [] } };
    const [details, ...rest] = shellRequests(ROUTES.newComments, 'user-1').map(({ path, query }) => withQuery(path, query));
    const { win } = pageAt(ROUTES.newComments, (url) =>
      url === details ? { status: 404, body: refused } : { status: 200, body: { from: 'head start', url } },
    );
    startHeadStart(win);
    window.__hcpHeadStart = win.__hcpHeadStart;
    const { api, asked } = entryClient();
    api.early(shellRequests(ROUTES.newComments, 'user-1'));
    await expect(api.request(details as string)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    for (const url of rest) await expect(api.request(url)).resolves.toEqual({ from: 'head start', url });
    expect(asked).toEqual([]);
  });

  it('is asked for again, each request alone, when the first answers were refused or never came', async () => {
    const failures: [string, (parts: unknown) => Promise<Response>][] = [
      ['a server without the route', async () => new Response('{}', { status: 404 })],
      ['a server error', async () => new Response('{}', { status: 500 })],
      ['a network failure', async () => Promise.reject(new TypeError('Failed to fetch'))],
      ['an answer missing a part', async () => json({ answers: [] })],
    ];
    for (const [name, answer] of failures) {
      const { win } = pageAt(ROUTES.actionNeeded, undefined, answer);
      startHeadStart(win);
      window.__hcpHeadStart = win.__hcpHeadStart;
      const { api, asked } = entryClient();
      const expected = shellRequests(ROUTES.actionNeeded, 'user-1').map(({ path, query }) => withQuery(path, query));
      api.early(shellRequests(ROUTES.actionNeeded, 'user-1'));
      for (const url of expected) await expect(api.request(url), name).resolves.toEqual({ from: 'entry', url });
      expect(asked, name).toEqual(expected);
    }
  });
});
