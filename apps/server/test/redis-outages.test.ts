/**
 * Redis lost, down or frozen (issue 45; decision 0052). Revocation survives it: the database holds every revocation
 * and Redis answers in front of it. Sign-in rate limits hold per instance while it is away. A Redis that lost its data (restarted empty, flushed, new), one that is down and one that accepts
 * connections but never answers: a revoked token is refused in every case, a live one accepted, and each call
 * returns (a hang would be this file's own time-out). Against the machine's Redis, each deny list in a namespace of
 * its own; "down" and "frozen" are a closed port and a listener that never answers, so the shared Redis is untouched.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_OPTIONS } from '../src/app.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { redisDenyList } from '../src/plugins/deny-list.ts';
import { buildTestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { createTestDatabase } from './support/database.ts';
import { REDIS_URL, redisReachable } from './support/services.ts';

const hasRedis = await redisReachable();

/** A Redis that is down (a closed port) and one that is frozen (accepts, never answers), as URLs. */
async function redisAway() {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const held: Socket[] = [];
  const frozen: Server = createServer((socket) => {
    held.push(socket);
    socket.on('data', () => undefined);
  });
  await new Promise<void>((r) => frozen.listen(0, '127.0.0.1', r));
  return {
    urls: [
      ['down', `redis://127.0.0.1:${closedPort}`],
      ['frozen', `redis://127.0.0.1:${(frozen.address() as AddressInfo).port}`],
    ] as const,
    close: async () => {
      for (const socket of held) socket.destroy();
      await new Promise((r) => frozen.close(r));
    },
  };
}
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe.runIf(hasRedis || process.env.CI)('the deny list with Redis in front of the database', () => {
  let database: DatabaseHandle;
  const clients: Redis[] = [];
  const redisAt = (url: string) => {
    const client = new Redis(url, { ...REDIS_OPTIONS, retryStrategy: () => 200 });
    client.on('error', () => undefined);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    expect(hasRedis, `Redis must be reachable at ${REDIS_URL} in CI`).toBe(true);
    database = await createTestDatabase('empty');
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await database?.close();
  });

  it('answers from Redis, and from the database when Redis lost everything, copying the revocations back', async () => {
    const prefix = `test:revoked:${randomUUID()}:`;
    const redis = redisAt(REDIS_URL);
    const list = redisDenyList(redis, database.db, { prefix });
    const [revoked, live] = [randomUUID(), randomUUID()];
    await list.revoke(revoked, 'jti', inAnHour());
    // The first check finds no marker (nothing was ever copied in): the database answers and Redis is filled.
    expect(await list.isRevoked([revoked])).toBe(true);
    expect(list.answeredBy).toMatchObject({ database: 1, reloads: 1 });
    expect(await list.isRevoked([revoked])).toBe(true);
    expect(await list.isRevoked([live])).toBe(false);
    expect(list.answeredBy.redis).toBe(2);

    // Redis restarts without persistence (or is flushed): every key of the namespace is gone.
    await redis.del(await redis.keys(`${prefix}*`));
    expect(await list.isRevoked([live, revoked])).toBe(true);
    expect(list.answeredBy).toMatchObject({ database: 2, reloads: 2 });
    expect(await redis.exists(`${prefix}${revoked}`)).toBe(1);
    expect(await list.isRevoked([revoked])).toBe(true);
    expect(list.answeredBy.redis).toBe(3);
  });

  it('asks the database while Redis is down or frozen: a revoked token is never accepted, and no call hangs', async () => {
    const away = await redisAway();
    try {
      for (const [name, url] of away.urls) {
        const list = redisDenyList(redisAt(url), database.db, { prefix: `test:revoked:${randomUUID()}:` });
        const [revoked, live] = [randomUUID(), randomUUID()];
        await list.revoke(revoked, 'family', inAnHour());
        expect(await list.isRevoked([revoked]), name).toBe(true);
        expect(await list.isRevoked([live]), name).toBe(false);
        expect(list.answeredBy.redis, name).toBe(0);
        expect(list.answeredBy.database, name).toBe(2);
      }
    } finally {
      await away.close();
    }
  });

  it('keeps a logged-out token refused by the portal after Redis lost its data', async () => {
    const t = await buildTestApp({ env: { REDIS_URL } });
    const redis = redisAt(REDIS_URL);
    try {
      const tokens = await signIn(t.app, 'staff.lee@demo.hcp');
      const url = '/api/mdo/v1/feature-flags';
      expect((await injectAs(t.app, tokens, { method: 'GET', url })).statusCode).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        payload: { userId: tokens.userID, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
      });
      expect((await injectAs(t.app, tokens, { method: 'GET', url })).statusCode).toBe(401);
      // The portal's namespace emptied as by a restart: the database still knows (other suites' checks fall back too).
      const keys = await redis.keys('hcp:revoked:*');
      if (keys.length > 0) await redis.del(keys);
      expect((await injectAs(t.app, tokens, { method: 'GET', url })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('holds the sign-in rate limit per instance while Redis is down or frozen, never a 500 or a hang', async () => {
    const away = await redisAway();
    try {
      for (const [name, url] of away.urls) {
        const t = await buildTestApp({ env: { REDIS_URL: url, AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
        try {
          const statuses: number[] = [];
          for (let attempt = 0; attempt < 5; attempt += 1) {
            const res = await t.app.inject({
              method: 'POST',
              url: '/auth-service/login',
              payload: { email: 'nobody@demo.hcp', password: 'wrong-password', dashboard: 'MD Dashboard' },
            });
            statuses.push(res.statusCode);
            if (res.statusCode === 429) expect(res.headers['retry-after'], name).toBeDefined();
          }
          expect(statuses, name).toEqual([401, 401, 401, 429, 429]);
          expect(
            t.logs.some((line) => String(line.msg).startsWith('rate limit counted by this instance alone')),
            name,
          ).toBe(true);
        } finally {
          await t.close();
        }
      }
    } finally {
      await away.close();
    }
  });
});
