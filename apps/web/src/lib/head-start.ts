/**
 * The head start (decision 0066): a landing screen's first GETs sent by a small script of the page itself, before
 * the entry (~120 KiB) has downloaded and run. Sent by the entry instead, they left only once its code had arrived and
 * been evaluated, so on a phone the screen then waited one more round trip for its data. The script
 * (src/head-start.ts, built on its own by build/head-start.ts, no React, no zod) leaves what it sent on `window`;
 * the API client's `early` takes each answer for the same URL and session, and sends only what is missing.
 *
 * Whichever runs first wins: the entry marks the page as started as it evaluates, and a head start arriving after
 * that sends nothing, and the shell's loader sends the same requests, as on every other page.
 */
import {
  type FirstAnswersResponse,
  firstAnswersApiPath,
  firstAnswersAskFor,
  firstAnswersParts,
  generateRequestId,
  LANDING_ROUTES,
} from '@hcp/contract';
import { endpoints } from './endpoints.ts';
import { requestHeaders, sessionHeaders, withQuery } from './request-shape.ts';
import { rxListOpening } from './shell-requests.ts';
import { readSession } from './storage.ts';

export interface HeadStart {
  /** The access token the requests carried: an answer is taken only by the same session. */
  token: string;
  /** When they left (the same freshness rule as the client's own early answers). */
  sentAt: number;
  /** Each request's answer by its full URL. */
  answers: Record<string, Promise<Response>>;
}

declare global {
  interface Window {
    /** Unset: nothing ran yet; null: the entry started first, or its early requests took what was sent. */
    __hcpHeadStart?: HeadStart | null;
  }
}

/** The head start's work, on the page it runs in. */
export function startHeadStart(win: Window = window): void {
  if (win.__hcpHeadStart !== undefined) return;
  const pathname = win.location.pathname;
  if (!(LANDING_ROUTES as readonly string[]).includes(pathname)) return;
  const session = readSession();
  if (!session) return;
  // One request for all of them (decision 0068): each `fetch` costs the phone's main thread, and a connection.
  const ask = firstAnswersAskFor(pathname, rxListOpening(new Date()));
  const url = `${endpoints.api}${withQuery(firstAnswersApiPath(session.userId), ask)}`;
  const all = win
    .fetch(url, { headers: { ...requestHeaders(generateRequestId()), ...sessionHeaders(session) } })
    .then(async (res) => {
      if (!res.ok) throw new Error(`first answers ${res.status}`);
      return ((await res.json()) as FirstAnswersResponse).answers;
    });
  const answers: HeadStart['answers'] = {};
  firstAnswersParts(ask, session.userId).forEach(({ path, query }, index) => {
    const answer = all.then(({ [index]: part }) => {
      if (!part) throw new Error('first answers: a part is missing');
      return new Response(JSON.stringify(part.body), {
        status: part.status,
        headers: { 'content-type': 'application/json' },
      });
    });
    // A request that failed on the way (or a first-answers request the server refused) is asked again by the
    // client; it is never an unhandled rejection.
    answer.catch(() => {});
    answers[`${endpoints.api}${withQuery(path, query)}`] = answer;
  });
  win.__hcpHeadStart = { token: session.accessToken, sentAt: Date.now(), answers };
}

/** The entry has started: a head start that arrives later sends nothing. */
export function markEntryStarted(win: Window = window): void {
  if (win.__hcpHeadStart === undefined) win.__hcpHeadStart = null;
}

/** What the head start sent, once (later calls answer nothing), when it was sent with `token`. */
export function takeHeadStart(token: string, win: Window | undefined = globalThis.window): HeadStart | undefined {
  const sent = win?.__hcpHeadStart;
  if (!win || !sent) return undefined;
  win.__hcpHeadStart = null;
  return sent.token === token ? sent : undefined;
}
