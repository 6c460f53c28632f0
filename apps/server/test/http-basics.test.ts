import { errorBodySchema, isRequestId } from '@hcp/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/lib/errors.ts';
import { INTERNAL_ERROR_MESSAGE } from '../src/plugins/errors.ts';
import { helmetHeaders } from '../src/plugins/security.ts';
import { buildTestApp, type TestApp } from './support/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ template: 'empty', env: { BODY_LIMIT_BYTES: '2048' } });
  // Test-only routes exercise the shared error handling the feature routes rely on.
  t.app.withTypeProvider<ZodTypeProvider>().post(
    '/api/mdo/v1/test-echo',
    {
      schema: {
        body: z.object({ name: z.string().min(2), age: z.number().int() }),
        querystring: z.object({ q: z.string().optional() }),
      },
    },
    async (request) => ({ ok: true, name: request.body.name }),
  );
  t.app.get('/api/mdo/v1/test-conflict', async () => {
    throw new AppError('CONFLICT', 'This prescription no longer needs a refill authorization.');
  });
  t.app.get('/api/mdo/v1/test-crash', async () => {
    throw new Error('connection string postgres://secret@db leaked');
  });
  await t.app.ready();
});
afterAll(() => t.close());

const expectErrorShape = (body: unknown) => expect(errorBodySchema.safeParse(body).success).toBe(true);

describe('health', () => {
  it('GET /healthz answers ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz checks the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('error shape', () => {
  it('unknown /api route -> 404 JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/mdo/v1/nope' });
    expect(res.statusCode).toBe(404);
    expectErrorShape(res.json());
    expect(res.json().error.code).toBe('NOT_FOUND');
  });

  it.each(['/auth/nope', '/auth-service/nope', '/api'])('unknown %s -> 404 JSON', async (url) => {
    const res = await t.app.inject({ method: 'POST', url, payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expectErrorShape(res.json());
  });

  it('validation errors -> 400 with field details', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/mdo/v1/test-echo', payload: { name: 'x', age: 'old' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectErrorShape(body);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    const paths = body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['body.age', 'body.name']);
  });

  it('malformed JSON -> 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/mdo/v1/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "Al',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' });
  });

  it('body too large -> 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/mdo/v1/test-echo', payload: { name: 'x'.repeat(5000), age: 1 } });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('unsupported content type -> 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/mdo/v1/test-echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an expected failure keeps its status and message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/mdo/v1/test-conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: { code: 'CONFLICT', message: 'This prescription no longer needs a refill authorization.' },
    });
  });

  it('anything unexpected -> 500 without internals, logged with the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/mdo/v1/test-crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: INTERNAL_ERROR_MESSAGE } });
    expect(res.body).not.toContain('secret');
    const logged = t.logs.find((l) => l.msg === 'unhandled error');
    expect(logged?.reqId).toBe(res.headers['x-request-id']);
  });
});

describe('request id', () => {
  it('echoes a well-formed client id', async () => {
    const id = 'AbCdEfGhIjKlMnOpQrStUvWx';
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).toBe(id);
  });

  it('generates a 24-character id when missing or malformed', async () => {
    for (const headers of [{}, { 'x-request-id': 'short' }, { 'x-request-id': 'x'.repeat(300) }]) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz', headers });
      expect(isRequestId(res.headers['x-request-id'])).toBe(true);
    }
  });

  it('puts the id on every log line of the request and redacts secrets and search text', async () => {
    const id = 'LogLineIdLogLineIdLogLin';
    await t.app.inject({
      method: 'GET',
      url: '/api/mdo/v1/nope?searchText=Jane%20Doe',
      headers: { 'x-request-id': id, authorization: 'Bearer super-secret-token' },
    });
    const lines = t.logs.filter((l) => l.reqId === id);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('super-secret-token');
    expect(text).not.toContain('Jane');
    expect(text).toContain('searchText=*');
  });
});

describe('security headers', () => {
  it('sends a strict CSP and the usual hardening headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('sends the same headers on refusals and unknown paths as on answers', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/healthz' });
    const names = Object.keys(helmetHeaders({})).filter((name) => name !== 'content-security-policy');
    expect(names.length).toBeGreaterThan(8);
    for (const url of ['/api/mdo/v1/users/x/rx-list', '/api/no-such-thing']) {
      const refused = await t.app.inject({ method: 'GET', url });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      for (const name of [...names, 'content-security-policy'])
        expect(refused.headers[name], `${url} ${name}`).toBe(ok.headers[name]);
    }
  });
});

describe('OpenAPI', () => {
  it('is generated from the route schemas and served at /api/docs', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().openapi).toMatch(/^3\./);
    expect(Object.keys(spec.json().paths)).toContain('/api/mdo/v1/test-echo');
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 in the error shape', async () => {
    const other = await buildTestApp({ template: 'empty' });
    await other.database.close();
    const res = await other.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
    await other.app.close();
  });
});
