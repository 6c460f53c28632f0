/**
 * What a request to the API carries, its URL and its headers, written once for the API client and for the page's
 * head start (lib/head-start.ts), which sends a landing screen's first requests before the client has arrived: the two
 * must ask for the very same URL for the client to take the head start's answer (decision 0066).
 */
import { API_HEADERS, APP_SOURCE } from '@hcp/contract';

export type Query = Record<string, string | number | boolean | undefined | null>;

/** `path?key=value…`, leaving out keys without a value; the keys keep their order, so equal asks are equal URLs. */
export function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ''}`;
}

/** The headers of every call (spec §7). */
export function requestHeaders(requestId: string): Record<string, string> {
  return { [API_HEADERS.requestId]: requestId, [API_HEADERS.appSource]: APP_SOURCE, accept: 'application/json' };
}

/** The signed-in session's headers. */
export function sessionHeaders(session: { accessToken: string; userId: string } | null): Record<string, string> {
  return session ? { [API_HEADERS.authorization]: `Bearer ${session.accessToken}`, [API_HEADERS.userId]: session.userId } : {};
}
