/**
 * Compressed answers (issue 21): reads go out brotli or gzip when the browser accepts them; answers that carry
 * secrets (POSTs: sign-in, renewal, tokens) never do, and a compressed request body is not inflated.
 */
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { DASHBOARD } from '@hcp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_SYNC_MAX_BYTES, COMPRESS_THRESHOLD_BYTES } from '../src/plugins/compression.ts';
import { DEMO_PASSWORD } from '../src/seed/index.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, login, signIn } from './support/auth.ts';

let t: TestApp;
const huge = 'y'.repeat(COMPRESS_SYNC_MAX_BYTES + 1);
let morgan: Awaited<ReturnType<typeof signIn>>;
const actionNeeded = () => `/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_ALL`;

beforeAll(async () => {
  t = await buildTestApp();
  // A large answer to both a read and a write, like a token answer next to text the sender chose.
  const large = async () => ({ token: 'secret', echo: 'x'.repeat(8 * COMPRESS_THRESHOLD_BYTES) });
  t.app.get('/api/mdo/v1/test-large', large);
  t.app.post('/api/mdo/v1/test-large', large);
  t.app.get('/api/mdo/v1/test-huge', async () => ({ huge }));
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
});
afterAll(() => t.close());

describe('compressed reads', () => {
  it('sends Action Needed brotli-compressed to a browser that accepts it, the same JSON in a fraction of the bytes', async () => {
    const plain = await injectAs(t.app, morgan, { method: 'GET', url: actionNeeded() });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await injectAs(t.app, morgan, {
      method: 'GET',
      url: actionNeeded(),
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    // Compressed in one call (issue 45, part 6), so the length is known: no chunked stream for a list this size.
    expect(br.headers['content-length']).toBe(String(br.rawPayload.length));
    expect(br.headers['transfer-encoding']).toBeUndefined();
  });

  it('streams what is larger than one synchronous call should take', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/mdo/v1/test-huge', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBeUndefined();
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8')).huge).toHaveLength(huge.length);
  });

  it('falls back to gzip, and leaves answers under the threshold as they are', async () => {
    const gz = await injectAs(t.app, morgan, { method: 'GET', url: actionNeeded(), headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8')).doctors).toEqual(expect.any(Array));
    const flags = await injectAs(t.app, morgan, {
      method: 'GET',
      url: '/api/mdo/v1/feature-flags',
      headers: { 'accept-encoding': 'br' },
    });
    expect(flags.statusCode).toBe(200);
    expect(flags.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(flags.headers['content-encoding']).toBeUndefined();
  });
});

describe('answers that carry secrets, and request bodies', () => {
  it('never compresses the answer of a write (where tokens are issued), whatever its size or the browser accepts', async () => {
    for (const method of ['POST', 'GET'] as const) {
      const res = await t.app.inject({ method, url: '/api/mdo/v1/test-large', headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(method === 'GET' ? 'br' : undefined);
    }
  });

  it('does not inflate a compressed request body: it is refused as unreadable and nobody is signed in', async () => {
    const body = gzipSync(
      JSON.stringify({
        email: 'dr.morgan@demo.hcp',
        username: 'dr.morgan@demo.hcp',
        password: DEMO_PASSWORD,
        dashboard: DASHBOARD,
      }),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth-service/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect((await login(t.app, 'dr.morgan@demo.hcp')).statusCode).toBe(200);
  });
});
