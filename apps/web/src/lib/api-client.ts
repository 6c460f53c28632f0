/**
 * The API client only adds headers, refreshes once on 401 and throws typed errors (spec §7, STYLE
 * "Avoid"): it shows nothing and navigates nowhere. The query client decides what a failure means.
 */

import {
  apiPaths,
  DASHBOARD,
  type ErrorCode,
  type ErrorDetail,
  generateRequestId,
  type NormalizedError,
  normalizeError,
} from '@hcp/contract';
import type { z } from 'zod';
import { webConfig } from './config.ts';
import { takeHeadStart } from './head-start.ts';
import { type Query, requestHeaders, sessionHeaders, withQuery } from './request-shape.ts';
import { clearSession, readSession, storage } from './storage.ts';

export class ApiError extends Error implements NormalizedError {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[];
  readonly requestId: string;
  constructor(normalized: NormalizedError, requestId: string) {
    super(normalized.message);
    this.code = normalized.code;
    this.status = normalized.status;
    this.details = normalized.details;
    this.requestId = requestId;
  }
}

/** The session could not be renewed: the app sends the user to /logout (spec §4). */
export class SessionExpiredError extends ApiError {
  override name = 'SessionExpiredError';
}

export const NETWORK_ERROR_MESSAGE = 'Cannot reach the HCP Portal server. Check your connection and try again.';

/**
 * A schema or a guard, or a function that loads one. A loader keeps zod and the schema out of the first load: it
 * starts with the request, and the answer is checked once both have arrived (docs/decisions/0028).
 */
export type SchemaSource = z.ZodType | GuardCheck<unknown> | (() => Promise<z.ZodType | GuardCheck<unknown>>);

/**
 * A zod-free check of an answer, for those a first screen waits for (the brand, the user's details): a contract
 * guard bound to the answer's schema by a property test, so no first screen waits for zod (issue 21, decision 0043).
 */
export interface GuardCheck<T> {
  readonly guard: (value: unknown) => value is T;
}
export const guardCheck = <T>(guard: (value: unknown) => value is T): GuardCheck<T> => ({ guard });

export interface RequestOptions<S extends SchemaSource | undefined = undefined> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** Validates the answer; a mismatch is a typed error rather than a crash later in a screen. */
  schema?: S;
  signal?: AbortSignal;
  /** Send the session headers and renew the session on 401 (default true). */
  auth?: boolean;
  /** 'text' returns the body as text (e.g. a printable HTML page), 'blob' as a file (a download). */
  /** 'stream': the open Response itself (an event stream), once the status is 2xx. */
  as?: 'json' | 'text' | 'blob' | 'stream';
  /** Extra headers a call needs (e.g. an appeal-scoped token). */
  headers?: Record<string, string>;
  /** Let the request finish after the page is closed (a last draft save on leaving). */
  keepalive?: boolean;
}

export interface UploadOptions<S extends z.ZodType | undefined = undefined> {
  schema?: S;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Called as the body goes out: bytes sent so far and the total. */
  onProgress?: (sent: number, total: number) => void;
}

type Answer<S> = S extends z.ZodType
  ? z.infer<S>
  : S extends GuardCheck<infer G>
    ? G
    : S extends () => Promise<infer T extends z.ZodType>
      ? z.infer<T>
      : S extends () => Promise<GuardCheck<infer G>>
        ? G
        : unknown;

type RefreshOutcome = 'renewed' | 'refused' | 'unavailable';
/** The refresh answers that mean the refresh token is no good (anything else is a refresh not made). */
const REFUSED_REFRESH: ReadonlySet<number> = new Set([400, 401, 403]);

const networkError = (requestId: string) =>
  new ApiError({ code: 'SERVICE_UNAVAILABLE', status: 0, message: NETWORK_ERROR_MESSAGE, details: [] }, requestId);

/** Starts loading a lazy schema; a failure is seen when the answer is read, never as an unhandled rejection. */
function startLoading(source: SchemaSource | undefined): Promise<z.ZodType | GuardCheck<unknown> | undefined> {
  const loading = Promise.resolve(typeof source === 'function' ? source() : source);
  loading.catch(() => {});
  return loading;
}

export interface ApiClientConfig {
  baseUrl?: string;
  authBaseUrl?: string;
  fetch?: typeof fetch;
}

/** How long an early answer waits for the request it stands in for; older, it is dropped and asked again. */
export const EARLY_ANSWER_MS = 10_000;

export function createApiClient(config: ApiClientConfig = {}) {
  const baseUrl = config.baseUrl ?? '';
  const doFetch = (...args: Parameters<typeof fetch>) => (config.fetch ?? globalThis.fetch)(...args);
  let refreshing: Promise<RefreshOutcome> | null = null;
  /** GETs sent before their screen's code arrived (`early`), by URL: each answers the first same request, once. */
  const earlyAnswers = new Map<string, { answer: Promise<Response>; token: string | undefined; sentAt: number }>();

  /**
   * The early answer standing in for this GET, when one was sent with the same session and is fresh. Only a plain
   * signed-in GET takes one: an early request carried no other headers.
   */
  function takeEarly(url: string, options: RequestOptions<SchemaSource | undefined>): Promise<Response> | undefined {
    const early = earlyAnswers.get(url);
    if (!early) return undefined;
    earlyAnswers.delete(url);
    const fresh = Date.now() - early.sentAt < EARLY_ANSWER_MS;
    const plain = options.auth !== false && options.headers === undefined;
    return fresh && plain && early.token === readSession()?.accessToken ? early.answer : undefined;
  }

  function buildUrl(path: string, query?: RequestOptions['query']): string {
    const base = path.startsWith('/auth-service') ? (config.authBaseUrl ?? baseUrl) : baseUrl;
    return `${base}${withQuery(path, query)}`;
  }

  async function send(url: string, options: RequestOptions<SchemaSource | undefined>, requestId: string): Promise<Response> {
    const headers: Record<string, string> = {
      ...requestHeaders(requestId),
      ...options.headers,
      ...sessionHeaders(options.auth === false ? null : readSession()),
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      // No timeout on purpose (spec §9: HTTP default timeout none); callers cancel with `signal`.
      return await doFetch(url, {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
        ...(options.keepalive ? { keepalive: true } : {}),
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw networkError(requestId);
    }
  }

  /**
   * One refresh at a time: parallel 401s share it, so a rotated refresh token is never reused. Only the server's
   * refusal ends the session; a refresh that could not be made (offline, overloaded, rate limited) leaves it as it
   * is, so a busy moment never signs a clinician out.
   */
  function refreshOnce(): Promise<RefreshOutcome> {
    refreshing ??= (async (): Promise<RefreshOutcome> => {
      const refreshToken = storage.get('refreshToken');
      if (!refreshToken) return 'refused';
      try {
        const res = await doFetch(buildUrl(apiPaths.refresh), {
          method: 'POST',
          headers: { ...requestHeaders(generateRequestId()), 'content-type': 'application/json' },
          body: JSON.stringify({ refreshToken, dashboard: DASHBOARD }),
        });
        // Another tab may have rotated the shared refresh token first: its new tokens are ours too.
        const rotatedElsewhere = () => storage.get('refreshToken') !== refreshToken && storage.get('accessToken') !== null;
        if (!res.ok) {
          if (rotatedElsewhere()) return 'renewed';
          return REFUSED_REFRESH.has(res.status) ? 'refused' : 'unavailable';
        }
        const { refreshResponseSchema } = await import('./boot-schemas.ts');
        const tokens = refreshResponseSchema.safeParse(await res.json());
        if (!tokens.success) return rotatedElsewhere() ? 'renewed' : 'unavailable';
        storage.set('accessToken', tokens.data.accessToken);
        storage.set('refreshToken', tokens.data.refreshToken);
        return 'renewed';
      } catch {
        return 'unavailable';
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function request<S extends SchemaSource | undefined = undefined>(
    path: string,
    options: RequestOptions<S> = {},
  ): Promise<Answer<S>> {
    const requestId = generateRequestId();
    const schema = startLoading(options.schema);
    const usedToken = readSession()?.accessToken;
    const url = buildUrl(path, options.query);
    const isGet = (options.method ?? 'GET') === 'GET';
    // A write may change what an early answer says: none is used after one.
    if (!isGet) earlyAnswers.clear();
    const early = isGet ? takeEarly(url, options) : undefined;
    // An early request that failed on the way is simply made again.
    let res = (early && (await early.catch(() => undefined))) || (await send(url, options, requestId));
    if (res.status === 401 && options.auth !== false && readSession()) {
      // A newer token than the one sent (renewed meanwhile, here or in another tab) needs no refresh.
      const outcome = readSession()?.accessToken !== usedToken ? 'renewed' : await refreshOnce();
      // Could not ask: the session stands and the screen says the request failed (it can be tried again).
      if (outcome === 'unavailable') throw networkError(requestId);
      if (outcome === 'renewed') {
        res = await send(url, options, requestId);
      }
      if (res.status === 401) {
        clearSession();
        throw new SessionExpiredError(
          { code: 'UNAUTHORIZED', status: 401, message: 'Your session has ended. Please sign in again.', details: [] },
          requestId,
        );
      }
    }
    if (options.as === 'blob' && res.ok) return (await res.blob()) as Answer<S>;
    if (options.as === 'stream' && res.ok) return res as Answer<S>;
    const body = readBody(res.status, await res.text(), options.as, requestId);
    let resolved: z.ZodType | GuardCheck<unknown> | undefined;
    try {
      resolved = await schema;
    } catch {
      // The schema's module did not arrive: as good as no answer.
      throw networkError(requestId);
    }
    return checked(body, resolved, requestId) as Answer<S>;
  }

  /**
   * Sends a multipart form with upload progress, which fetch cannot report (XMLHttpRequest can). Same headers
   * (no portal session: uploads are the appeal's, with its own token) and the same typed errors as `request`.
   */
  function upload<S extends z.ZodType | undefined = undefined>(
    path: string,
    form: FormData,
    options: UploadOptions<S> = {},
  ): Promise<Answer<S>> {
    const requestId = generateRequestId();
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', buildUrl(path));
      const headers = { ...requestHeaders(requestId), ...options.headers };
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => options.onProgress?.(event.loaded, event.total);
      xhr.onload = () => {
        try {
          const body = readBody(xhr.status, xhr.responseText, undefined, requestId);
          resolve(checked(body, options.schema, requestId) as Answer<S>);
        } catch (error) {
          reject(error);
        }
      };
      xhr.onerror = () => reject(networkError(requestId));
      xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
      options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });
  }

  /**
   * Sends the GETs a screen will make while its code is still downloading (issue 21, decision 0044): the first
   * screen after opening the portal would otherwise wait for its code and only then ask for its data. The
   * answer is kept, unread, for the screen's own request, which checks it as usual; it is never shown alone.
   */
  function early(requests: { path: string; query?: RequestOptions['query'] }[]): void {
    const token = readSession()?.accessToken;
    if (!token) return;
    // The page's head start may have sent them already (decision 0066): its answers are taken, the rest sent.
    const headStart = takeHeadStart(token);
    for (const { path, query } of requests) {
      const url = buildUrl(path, query);
      const sentBefore = headStart?.answers[url];
      const answer = sentBefore ?? send(url, {}, generateRequestId());
      answer.catch(() => {});
      // A head start's answer is as old as its request, not its hand-over: the freshness rule counts from the sending.
      earlyAnswers.set(url, { answer, token, sentAt: (sentBefore && headStart?.sentAt) || Date.now() });
    }
  }

  // renewSession: new tokens now (decision 0060): after adding a strong factor, a token good only for that becomes a
  // full one. 'renewed', or why not.
  return { request, upload, early, renewSession: refreshOnce };
}

/** The answer's body (its text when asked for text), or the typed error it carries. */
function readBody(status: number, text: string, as: RequestOptions['as'], requestId: string): unknown {
  const ok = status >= 200 && status < 300;
  if (as === 'text' && ok) return text;
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError(normalizeError(null), requestId);
    }
  }
  // Spec §7: an answer with an error field or status 'ERROR' is a failure whatever its HTTP status.
  const record = body as Record<string, unknown> | null;
  if (!ok || (record && typeof record === 'object' && ('error' in record || record.status === 'ERROR'))) {
    const normalized = normalizeError(body);
    throw new ApiError({ ...normalized, status: ok ? normalized.status : status }, requestId);
  }
  return body;
}

/** A good answer's body, checked against its schema when it has one. */
function checked(body: unknown, schema: z.ZodType | GuardCheck<unknown> | undefined, requestId: string): unknown {
  if (!schema) return body;
  const parsed = 'guard' in schema ? { success: schema.guard(body), data: body } : schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(
      { code: 'INTERNAL', status: 500, message: 'The server answered in an unexpected shape.', details: [] },
      requestId,
    );
  }
  return parsed.data;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client, on the API and auth addresses of its environment (spec §9, lib/config.ts). */
export const api = createApiClient({ baseUrl: webConfig.endpoints.api, authBaseUrl: webConfig.endpoints.auth });
