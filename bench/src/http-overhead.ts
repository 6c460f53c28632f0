/**
 * The cost of our HTTP stack (helmet, request ids, logging, error handling, zod serializer) on a call
 * that touches the database: GET /readyz through buildApp vs a bare node:http server running the same
 * query on the same PGlite instance.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { wrapPglite } from '../../apps/server/src/db/client.ts';
import { interleavedRatio, load } from './measure.ts';

export async function httpOverhead(seconds: number): Promise<void> {
  const client = new PGlite();
  const database = wrapPglite(client);
  await database.migrate();

  const bare = http.createServer(async (_req, res) => {
    await client.query('select 1');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok', database: 'ok' }));
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/readyz`;

  const app = await buildApp(loadConfig({ LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', WARM_UP: 'off' }), { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/readyz`;

  const round = Math.max(1, Math.round(seconds / 2));
  await interleavedRatio(
    'http-overhead',
    'GET /readyz req/s (Fastify stack)',
    'bare node:http + same query',
    5,
    async () => (await load(appUrl, round)).requestsPerSecond,
    async () => (await load(bareUrl, round)).requestsPerSecond,
    (a, b) => `${a.toFixed(0)} vs ${b.toFixed(0)} req/s`,
  );
  await app.close();
  bare.close();
  await client.close();
}
