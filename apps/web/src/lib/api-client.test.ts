import { isRequestId, STATUS_ERROR_MESSAGE } from '@hcp/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, createApiClient, guardCheck, NETWORK_ERROR_MESSAGE, SessionExpiredError } from './api-client.ts';
import { readSession, saveSession, storage } from './storage.ts';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function client(handler: Handler) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return handler(String(url), init ?? {});
  });
  return { api: createApiClient({ fetch: fetchImpl as typeof fetch }), calls };
}
const header = (init: RequestInit, name: string) => (init.headers as Record<string, string>)[name];
function nth<T>(items: T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

beforeEach(() => {
  saveSession({ accessToken: 'access-1', refreshToken: 'refresh-1', userID: 'user-1' });
});

describe('api client headers', () => {
  it('sends bearer token, user id, a fresh 24-character request id and the app source', async () => {
    const { api, calls } = client(() => json({ ok: true }));
    await api.request('/api/mdo/v1/feature-flags');
    await api.request('/api/mdo/v1/feature-flags');
    const first = nth(calls, 0);
    const second = nth(calls, 1);
    expect(header(first.init, 'authorization')).toBe('Bearer access-1');
    expect(header(first.init, 'x-user-id')).toBe('user-1');
    expect(header(first.init, 'x-app-source')).toBe('md-dashboard');
    expect(isRequestId(header(first.init, 'x-request-id'))).toBe(true);
    expect(header(second.init, 'x-request-id')).not.toBe(header(first.init, 'x-request-id'));
  });

  it('sends no session headers for public calls, and JSON bodies with their content type', async () => {
    const { api, calls } = client(() => json({ ok: true }));
    await api.request('/auth-service/login', {
      method: 'POST',
      auth: false,
      body: { a: 1 },
      query: { x: 'y z', skip: undefined },
    });
    expect(header(nth(calls, 0).init, 'authorization')).toBeUndefined();
    expect(header(nth(calls, 0).init, 'content-type')).toBe('application/json');
    expect(nth(calls, 0).init.body).toBe('{"a":1}');
    expect(nth(calls, 0).url).toBe('/auth-service/login?x=y+z');
  });
});

describe('api client errors', () => {
  it('rejects an answer with an error field even when HTTP says 200', async () => {
    const { api } = client(() => json({ error: 'Practice not found' }));
    await expect(api.request('/x')).rejects.toMatchObject({ name: 'ApiError', message: 'Practice not found' });
  });

  it("rejects status 'ERROR' with the spec's message", async () => {
    const { api } = client(() => json({ status: 'ERROR' }));
    await expect(api.request('/x')).rejects.toMatchObject({ message: STATUS_ERROR_MESSAGE });
  });

  it('throws typed errors from our error shape, keeping the HTTP status and details', async () => {
    const { api } = client(() =>
      json(
        {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'Some fields are not valid.',
            details: [{ path: 'body.email', message: 'Bad' }],
          },
        },
        400,
      ),
    );
    const error = await api.request('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', details: [{ path: 'body.email', message: 'Bad' }] });
    expect(isRequestId((error as ApiError).requestId)).toBe(true);
  });

  it('turns a network failure into a typed error', async () => {
    const { api } = client(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.request('/x')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: NETWORK_ERROR_MESSAGE });
  });

  it('checks the answer against a schema when given', async () => {
    const { api } = client(() => json({ total: 'many' }));
    await expect(api.request('/x', { schema: z.object({ total: z.number() }) })).rejects.toMatchObject({ code: 'INTERNAL' });
    const ok = client(() => json({ total: 3 }));
    await expect(ok.api.request('/x', { schema: z.object({ total: z.number() }) })).resolves.toEqual({ total: 3 });
  });

  it('checks the answer with a zod-free guard when given one (the first screen’s answers)', async () => {
    const isTotal = (value: unknown): value is { total: number } =>
      typeof value === 'object' && value !== null && typeof (value as { total?: unknown }).total === 'number';
    const { api } = client(() => json({ total: 'many' }));
    await expect(api.request('/x', { schema: guardCheck(isTotal) })).rejects.toMatchObject({
      code: 'INTERNAL',
      message: 'The server answered in an unexpected shape.',
    });
    const ok = client(() => json({ total: 3 }));
    const total: number = (await ok.api.request('/x', { schema: guardCheck(isTotal) })).total;
    expect(total).toBe(3);
    // A guard can load beside the request too (lib/boot-guards.ts), typed by what it guards.
    const lazy = async () => guardCheck(isTotal);
    const loaded: number = (await ok.api.request('/x', { schema: lazy })).total;
    expect(loaded).toBe(3);
    await expect(client(() => json({ total: 'many' })).api.request('/x', { schema: lazy })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });

  it('loads a lazy schema while the request is out and checks the answer with it', async () => {
    const order: string[] = [];
    const schema = z.object({ total: z.number() });
    const load = vi.fn(async () => {
      order.push('schema');
      return schema;
    });
    const { api } = client(() => {
      order.push('fetch');
      return json({ total: 3 });
    });
    const total: number = (await api.request('/x', { schema: load })).total;
    expect(total).toBe(3);
    expect(order).toEqual(['schema', 'fetch']);
    const bad = client(() => json({ total: 'many' }));
    await expect(bad.api.request('/x', { schema: load })).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('a lazy schema that never arrives is a network failure, but the server’s own refusal still wins', async () => {
    const missing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const { api } = client(() => json({ total: 3 }));
    await expect(api.request('/x', { schema: missing })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: NETWORK_ERROR_MESSAGE,
    });
    const refused = client(() => json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, 404));
    await expect(refused.api.request('/x', { schema: missing })).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});

describe('session renewal', () => {
  it('refreshes once on 401, stores the new tokens and retries with the same request id', async () => {
    let n = 0;
    const { api, calls } = client((url, init) => {
      if (url.endsWith('/auth-service/refresh')) {
        expect(JSON.parse(String(init.body))).toEqual({ refreshToken: 'refresh-1', dashboard: 'MD Dashboard' });
        return json({ accessToken: 'access-2', refreshToken: 'refresh-2' });
      }
      n += 1;
      return n === 1 ? json({ error: { code: 'UNAUTHORIZED', message: 'expired' } }, 401) : json({ ok: true });
    });
    await expect(api.request('/api/x')).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.url)).toEqual(['/api/x', '/auth-service/refresh', '/api/x']);
    expect(header(nth(calls, 2).init, 'authorization')).toBe('Bearer access-2');
    expect(header(nth(calls, 2).init, 'x-request-id')).toBe(header(nth(calls, 0).init, 'x-request-id'));
    expect(storage.get('refreshToken')).toBe('refresh-2');
  });

  it('parallel 401s share one refresh', async () => {
    let refreshes = 0;
    const { api } = client(async (url, init) => {
      if (url.endsWith('/refresh')) {
        refreshes += 1;
        await new Promise((r) => setTimeout(r, 10));
        return json({ accessToken: 'access-2', refreshToken: 'refresh-2' });
      }
      return header(init, 'authorization') === 'Bearer access-2' ? json({ ok: true }) : json({}, 401);
    });
    await Promise.all([api.request('/a'), api.request('/b'), api.request('/c')]);
    expect(refreshes).toBe(1);
  });

  it('uses tokens another tab rotated instead of ending the session', async () => {
    const { api, calls } = client((url, init) => {
      if (url.endsWith('/refresh')) {
        // The other tab won the race: our refresh token is already rotated, and its new tokens are stored.
        saveSession({ accessToken: 'access-tab2', refreshToken: 'refresh-tab2', userID: 'user-1' });
        return json({ error: { code: 'UNAUTHORIZED', message: 'used' } }, 401);
      }
      return header(init, 'authorization') === 'Bearer access-tab2' ? json({ ok: true }) : json({}, 401);
    });
    await expect(api.request('/api/x')).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.url)).toEqual(['/api/x', '/auth-service/refresh', '/api/x']);
  });

  it('clears the session and throws SessionExpiredError when the refresh fails', async () => {
    const { api, calls } = client((url) =>
      url.endsWith('/refresh') ? json({ error: { code: 'UNAUTHORIZED', message: 'no' } }, 401) : json({}, 401),
    );
    await expect(api.request('/api/x')).rejects.toBeInstanceOf(SessionExpiredError);
    expect(readSession()).toBeNull();
    expect(calls).toHaveLength(2);
  });

  it.each([
    ['overloaded', () => json({ error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } }, 503)],
    ['rate limited', () => json({ error: { code: 'RATE_LIMITED', message: 'wait' } }, 429)],
    ['offline', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('keeps the session when the refresh could not be made (%s): the request fails, nobody is signed out', async (_, answer) => {
    const { api } = client((url) => (url.endsWith('/refresh') ? answer() : json({}, 401)));
    const error = await api.request('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(SessionExpiredError);
    expect((error as ApiError).message).toBe(NETWORK_ERROR_MESSAGE);
    expect(readSession()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1', userId: 'user-1' });
  });
});

/** A stand-in XMLHttpRequest: records what is sent, reports progress, answers as told. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static answer: { status: number; body: string } | 'network' = { status: 200, body: '{}' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {
    this.onabort?.();
  }
  send(body: unknown) {
    this.sent = body;
    queueMicrotask(() => {
      this.upload.onprogress?.({ loaded: 50, total: 100 });
      this.upload.onprogress?.({ loaded: 100, total: 100 });
      const answer = FakeXhr.answer;
      if (answer === 'network') return this.onerror?.();
      this.status = answer.status;
      this.responseText = answer.body;
      this.onload?.();
    });
  }
}

describe('uploads', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    return () => vi.unstubAllGlobals();
  });

  it('posts the form with the call’s headers (no portal session), reports progress and checks the answer', async () => {
    FakeXhr.answer = { status: 200, body: JSON.stringify({ id: 'a1' }) };
    const { api } = client(() => json({}));
    const form = new FormData();
    const progress: [number, number][] = [];
    const answer = await api.upload('/api/mdo/v1/appeal/a1/file-upload', form, {
      headers: { 'x-appeal-token': 't' },
      schema: z.object({ id: z.string() }),
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    expect(answer).toEqual({ id: 'a1' });
    const xhr = FakeXhr.last as FakeXhr;
    expect([xhr.method, xhr.url, xhr.sent]).toEqual(['POST', '/api/mdo/v1/appeal/a1/file-upload', form]);
    expect(xhr.headers['x-appeal-token']).toBe('t');
    expect(isRequestId(xhr.headers['x-request-id'] ?? '')).toBe(true);
    expect(xhr.headers.authorization).toBeUndefined();
    expect(progress).toEqual([
      [50, 100],
      [100, 100],
    ]);
  });

  it('throws the same typed errors as other calls: the server’s refusal, or a network failure', async () => {
    const { api } = client(() => json({}));
    FakeXhr.answer = {
      status: 413,
      body: JSON.stringify({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Each file can be at most 10 MB.' } }),
    };
    const refused = await api.upload('/x', new FormData()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Each file can be at most 10 MB.' });
    FakeXhr.answer = 'network';
    await expect(api.upload('/x', new FormData())).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
  });
});

describe('early answers (a screen asked for before its code arrived)', () => {
  it("answers the screen's own request once: one fetch for both, the second request asks again", async () => {
    const { api, calls } = client(() => json({ n: calls.length }));
    api.early([{ path: '/api/list', query: { kind: 'all' } }]);
    expect(calls.map((c) => c.url)).toEqual(['/api/list?kind=all']);
    expect(header(nth(calls, 0).init, 'authorization')).toBe('Bearer access-1');
    await expect(api.request('/api/list', { query: { kind: 'all' } })).resolves.toEqual({ n: 1 });
    expect(calls).toHaveLength(1);
    await expect(api.request('/api/list', { query: { kind: 'all' } })).resolves.toEqual({ n: 2 });
    expect(calls).toHaveLength(2);
  });

  it('is checked like any answer: a shape the schema refuses is an error', async () => {
    const { api } = client(() => json({ wrong: true }));
    api.early([{ path: '/api/list' }]);
    await expect(api.request('/api/list', { schema: z.object({ items: z.array(z.string()) }) })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });

  it('is never used after a write, with another session, for another URL or once old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { api, calls } = client(() => json({ n: calls.length }));
      api.early([{ path: '/api/a' }, { path: '/api/b' }, { path: '/api/c' }]);
      await api.request('/api/save', { method: 'POST', body: {} });
      await expect(api.request('/api/a')).resolves.toEqual({ n: 5 });

      api.early([{ path: '/api/d' }]);
      saveSession({ accessToken: 'access-2', refreshToken: 'refresh-2', userID: 'user-1' });
      await expect(api.request('/api/d')).resolves.toEqual({ n: 7 });

      api.early([{ path: '/api/e' }]);
      await expect(api.request('/api/e', { query: { page: 2 } })).resolves.toEqual({ n: 9 });

      api.early([{ path: '/api/f' }]);
      vi.setSystemTime(Date.now() + 11_000);
      await expect(api.request('/api/f')).resolves.toEqual({ n: 11 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks again when the early request failed on the way', async () => {
    let n = 0;
    const { api, calls } = client(() => {
      n += 1;
      if (n === 1) throw new TypeError('offline');
      return json({ ok: true });
    });
    api.early([{ path: '/api/a' }]);
    await expect(api.request('/api/a')).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('sends nothing without a session', () => {
    storage.remove('accessToken');
    const { api, calls } = client(() => json({}));
    api.early([{ path: '/api/a' }]);
    expect(calls).toHaveLength(0);
  });
});
