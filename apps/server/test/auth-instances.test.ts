/** Behaviour that spans instances: per-IP rate limits, logout seen by every instance, housekeeping once per cluster. */
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import { buildTestApp } from './support/app.ts';
import { injectAs, login, signIn } from './support/auth.ts';
import { createTestDatabase } from './support/database.ts';
import { REDIS_URL, redisReachable } from './support/services.ts';

let database: DatabaseHandle;
let hasRedis = false;
beforeAll(async () => {
  database = await createTestDatabase('demo');
  hasRedis = await redisReachable();
});
afterAll(() => database.close());

describe('per-IP rate limit on sign-in', () => {
  it('answers 429 with Retry-After in the error shape past the limit', async () => {
    const t = await buildTestApp({ database, env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i += 1) expect((await login(t.app, 'nobody@nowhere.example', 'x-password')).statusCode).toBe(401);
      const limited = await login(t.app, 'nobody@nowhere.example', 'x-password');
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
    } finally {
      await t.app.close();
    }
  });
});

describe('logout across two instances', () => {
  it('with the database deny-list, instance B refuses a token logged out on instance A', async () => {
    const a = await buildTestApp({ database });
    const b = await buildTestApp({ database });
    try {
      const tokens = await signIn(a.app, 'dr.morgan@demo.hcp');
      const url = '/api/mdo/v1/feature-flags';
      expect((await injectAs(b.app, tokens, { method: 'GET', url })).statusCode).toBe(200);
      await a.app.inject({
        method: 'POST',
        url: '/auth/logout',
        payload: { userId: tokens.userID, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
      });
      expect((await injectAs(b.app, tokens, { method: 'GET', url })).statusCode).toBe(401);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });

  it.runIf(process.env.CI || process.env.REDIS_URL)(
    'with Redis (REDIS_URL), both instances share the deny-list and rate limits',
    async () => {
      expect(hasRedis, `Redis must be reachable at ${REDIS_URL} in CI`).toBe(true);
      const a = await buildTestApp({ database, env: { REDIS_URL, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
      const b = await buildTestApp({ database, env: { REDIS_URL, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
      const redis = new Redis(REDIS_URL);
      try {
        const tokens = await signIn(a.app, 'staff.lee@demo.hcp');
        const url = '/api/mdo/v1/feature-flags';
        expect((await injectAs(b.app, tokens, { method: 'GET', url })).statusCode).toBe(200);
        await a.app.inject({
          method: 'POST',
          url: '/auth/logout',
          payload: { userId: tokens.userID, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
        });
        expect((await injectAs(b.app, tokens, { method: 'GET', url })).statusCode).toBe(401);
        const keys = await redis.keys('hcp:revoked:*');
        expect(keys.length).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
        await a.app.close();
        await b.app.close();
      }
    },
  );
});

describe('housekeeping across two instances', () => {
  it('purges the shared database and file store once per round, whichever instance comes first', async () => {
    const a = await buildTestApp({ database });
    const b = await buildTestApp({ database });
    const done = (t: typeof a, name: string) => t.logs.filter((line) => line.msg === `housekeeping: ${name} done`).length;
    try {
      const [ranA, ranB] = await Promise.all([a.app.housekeeping.runOnce(), b.app.housekeeping.runOnce()]);
      expect([ranA.cluster, ranB.cluster].sort()).toEqual([false, true]);
      const [winner, other] = ranA.cluster ? [a, b] : [b, a];
      for (const purge of ['signIn', 'idempotencyKeys', 'integrationAssertions', 'decisionUndos', 'appealFiles']) {
        expect(done(winner, purge), purge).toBe(1);
        expect(done(other, purge), purge).toBe(0);
      }
      // Within the round's lease nobody runs it again, not even its holder.
      expect((await winner.app.housekeeping.runOnce()).cluster).toBe(false);
      expect((await other.app.housekeeping.runOnce()).cluster).toBe(false);
      // The period over, the next round runs on whichever instance asks first.
      await database.db.execute(sql`update job_leases set expires_at = now() - interval '1 second' where name = 'housekeeping'`);
      expect((await other.app.housekeeping.runOnce()).cluster).toBe(true);
      expect(done(other, 'signIn')).toBe(1);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });
});
