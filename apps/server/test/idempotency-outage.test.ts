/**
 * A write cut off by a database outage can be sent again (issue 45): the write answered 503, and releasing its
 * idempotency key failed too (the database was still away). The release is tried again until the database
 * answers, so the client's retry with the same request id goes through a moment later instead of answering
 * "being processed" until the key is abandoned (60 s); meanwhile that answer says when to try again.
 */
import { generateRequestId } from '@hcp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_SECONDS } from '../src/plugins/idempotency.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let runs = 0;
beforeAll(async () => {
  t = await buildTestApp();
  // A signed-in, idempotent write whose first run meets a database that went away.
  t.app.post('/api/mdo/v1/test-outage-write', { onRequest: t.app.requireAuth, preHandler: t.app.idempotent }, async () => {
    runs += 1;
    if (runs === 1) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    return { done: runs };
  });
});
afterAll(() => t.close());

describe('a write cut off by a database outage', () => {
  it('is answered 503, then "being processed" with Retry-After, then carried out once the key is released', async () => {
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const db = t.database.db;
    const realDelete = db.delete.bind(db);
    let failures = 1;
    // The release right after the 503 fails as well: the database is still away.
    db.delete = ((table: Parameters<typeof db.delete>[0]) => {
      if (failures > 0) {
        failures -= 1;
        throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
      }
      return realDelete(table);
    }) as typeof db.delete;
    const requestId = generateRequestId();
    const send = () =>
      injectAs(t.app, morgan, {
        method: 'POST',
        url: '/api/mdo/v1/test-outage-write',
        headers: { 'x-request-id': requestId },
        payload: {},
      });
    try {
      const first = await send();
      expect(first.statusCode).toBe(503);
      expect(first.headers['retry-after']).toBe('2');
      expect(failures).toBe(0);
      const answers: number[] = [];
      // The key is released a moment later (well before it would be abandoned), and the same request goes through.
      await expect
        .poll(
          async () => {
            const res = await send();
            answers.push(res.statusCode);
            if (res.statusCode === 409) expect(res.headers['retry-after']).toBe('1');
            return res.statusCode;
          },
          { timeout: (ABANDONED_AFTER_SECONDS / 4) * 1000, interval: 100 },
        )
        .toBe(200);
      expect(runs).toBe(2);
      expect(new Set(answers.slice(0, -1))).toEqual(new Set(answers.length > 1 ? [409] : []));
      // And it acts once: a repeat answers the stored result.
      const again = await send();
      expect(again.json()).toEqual({ done: 2 });
      expect(runs).toBe(2);
    } finally {
      db.delete = realDelete;
    }
  });
});
