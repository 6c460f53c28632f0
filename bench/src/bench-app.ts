/** The real app for benchmarks: built on a given database, listening on a free loopback port, with a signer and no rate limits in the way. */
import type { AddressInfo } from 'node:net';
import { DASHBOARD } from '@hcp/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { type DatabaseHandle, wrapPool } from '../../apps/server/src/db/client.ts';
import { DEMO_PASSWORD, seedDemoData } from '../../apps/server/src/seed/index.ts';
import { createScratchDatabase } from '../../apps/server/test/support/services.ts';

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function startBenchApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  beforeListen?: (app: FastifyInstance) => void,
): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp(
    loadConfig({
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      AUTH_SIGNING_KEY: 'bench-signing-key-0123456789abcdefghij',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      ACCESS_TOKEN_TTL_SECONDS: '3600',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      WARM_UP: 'off',
      // The webhook bench's receivers listen on loopback: allowed by name through the outbound guard.
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
      ...env,
    }),
    { database, mailTransport: { name: 'bench', send: async () => undefined } },
  );
  beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

export async function benchSignIn(base: string, email: string) {
  const res = await fetch(`${base}/auth-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, dashboard: DASHBOARD }),
  });
  const { jwtToken } = (await res.json()) as { jwtToken: { accessToken: string; refreshToken: string; userID: string } };
  return jwtToken;
}

/** The headers of a signed-in call. */
export const authHeadersOf = (t: { accessToken: string; userID: string }) => ({
  authorization: `Bearer ${t.accessToken}`,
  'x-user-id': t.userID,
});

/**
 * A scratch PostgreSQL database (DATABASE_URL, default the machine's), migrated and seeded with the small demo: the
 * start of the PostgreSQL-only benches. `drop` removes it.
 */
export async function seededScratchPostgres(prefix: string) {
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const scratch = await createScratchDatabase(databaseUrl, prefix);
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  const database = wrapPool(pool);
  await database.migrate();
  await seedDemoData(database.db, { size: 'small' });
  return { scratch, pool, database };
}
