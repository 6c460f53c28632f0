/**
 * Two real server processes on one PostgreSQL and one Redis behind a small round-robin proxy (issue 24), the way
 * compose.yaml and the Kubernetes Service run them: each request of a journey goes to the other instance than the
 * one before, so a session, a write, an attachment or a logout made through one must hold through the other. Runs
 * in the PostgreSQL pass (DATABASE_URL); the embedded database is one process's by design.
 */
import { createServer, type Server as HttpServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APPEAL_TOKEN_HEADER, DASHBOARD, generateRequestId } from '@hcp/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoAppealKey } from '../src/seed/generate.ts';
import { DEMO_PASSWORD } from '../src/seed/index.ts';
import { freePort, Server } from './support/child-server.ts';
import { multipartBody } from './support/multipart.ts';
import { createScratchDatabase, REDIS_URL, redisReachable } from './support/services.ts';

const databaseUrl = inject('databaseUrl');

/** Deals requests to the upstreams in turn and says which one answered (`x-served-by`). */
async function startRoundRobin(upstreams: { name: string; port: number }[]) {
  let next = 0;
  const server: HttpServer = createServer((incoming: IncomingMessage, outgoing) => {
    const upstream = upstreams[next++ % upstreams.length] as { name: string; port: number };
    const forward = httpRequest(
      { host: '127.0.0.1', port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': upstream.name });
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => {
      outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const servers: Server[] = [];
let proxy: Awaited<ReturnType<typeof startRoundRobin>> | null = null;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;
afterAll(async () => {
  await proxy?.close();
  for (const server of servers) await server.stop();
  await scratch?.drop();
});

describe.runIf(databaseUrl)('two instances behind a round-robin proxy', () => {
  beforeAll(async () => {
    expect(await redisReachable(), `Redis must be reachable at ${REDIS_URL}`).toBe(true);
    scratch = await createScratchDatabase(databaseUrl, 'hcp_two');
    const shared = { DATABASE_URL: scratch.url, REDIS_URL, AUTH_RATE_LIMIT_PER_MINUTE: '1000' };
    const a = new Server(await freePort(), { ...shared, DATA_DIR: `/tmp/${scratch.name}-a` });
    const b = new Server(await freePort(), { ...shared, DATA_DIR: `/tmp/${scratch.name}-b` });
    servers.push(a, b);
    // One after the other: the first migrates and seeds, the second finds it done.
    await a.start();
    await b.start();
    proxy = await startRoundRobin([
      { name: 'a', port: a.port },
      { name: 'b', port: b.port },
    ]);
  }, 240_000);

  const served: string[] = [];
  async function call(path: string, init: RequestInit = {}) {
    const res = await fetch(`${proxy?.base}${path}`, init);
    served.push(res.headers.get('x-served-by') ?? '?');
    return res;
  }
  /** The last two calls went to different instances. */
  const crossed = () => {
    const [before, last] = served.slice(-2);
    return before !== last && before !== '?' && last !== '?';
  };

  it('signs in on one, acts on the other, sees the write from the first, and logs out everywhere', async () => {
    const login = await call('/auth-service/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'dr.morgan@demo.hcp',
        username: 'dr.morgan@demo.hcp',
        password: DEMO_PASSWORD,
        dashboard: DASHBOARD,
      }),
    });
    expect(login.status).toBe(200);
    const { jwtToken } = (await login.json()) as { jwtToken: { accessToken: string; refreshToken: string; userID: string } };
    const headers = { authorization: `Bearer ${jwtToken.accessToken}`, 'x-user-id': jwtToken.userID };

    const queue = await call(`/api/mdo/v2/users/${jwtToken.userID}/action-needed?actionType=ACTION_NEEDED_ALL`, { headers });
    expect(queue.status).toBe(200);
    expect(crossed(), 'the session made on one instance is honoured by the other').toBe(true);
    const patients = ((await queue.json()) as { doctors: { patients: { id: string }[] }[] }).doctors.flatMap((d) => d.patients);
    const patientId = patients[0]?.id as string;
    expect(patientId).toBeDefined();

    const text = `Seen through the other instance ${generateRequestId()}`;
    const reply = await call(`/api/mdo/v1/users/${jwtToken.userID}/rx-comment`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-request-id': generateRequestId() },
      body: JSON.stringify({ patientId, comment: text }),
    });
    expect(reply.status).toBe(200);
    const thread = await call(`/api/mdo/v1/patients/${patientId}/all-rx-comment`, { headers });
    expect(thread.status).toBe(200);
    expect(crossed()).toBe(true);
    expect(await thread.text()).toContain(text);

    const logout = await call('/auth/logout', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: jwtToken.userID, accessToken: jwtToken.accessToken, refreshToken: jwtToken.refreshToken }),
    });
    expect(logout.ok).toBe(true);
    const after = await call('/api/mdo/v1/feature-flags', { headers });
    expect(crossed()).toBe(true);
    expect(after.status, 'a token logged out on one instance is refused by the other').toBe(401);
  });

  it('stores an attachment through one instance and serves the same bytes through the other', async () => {
    const admin = new pg.Client({ connectionString: scratch?.url });
    await admin.connect();
    const { rows } = await admin.query<{ id: string; npi: string }>(
      'select id, npi from appeals where submitted_at is null order by id limit 1',
    );
    await admin.end();
    const appeal = rows[0] as { id: string; npi: string };

    const auth = await call('/api/mdo/v1/appeal-auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ npi: appeal.npi, key: demoAppealKey(appeal.id) }),
    });
    expect(auth.status).toBe(200);
    const token = ((await auth.json()) as { token: string }).token;

    // Bigger than one stored chunk, so the read spans several.
    const content = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(700_000, 7)]);
    const body = multipartBody([{ field: 'denialLetterFile', filename: 'denial.pdf', content, type: 'application/pdf' }]);
    const upload = await call(`/api/mdo/v1/appeal/${appeal.id}/file-upload`, {
      method: 'POST',
      headers: { 'content-type': body.contentType, [APPEAL_TOKEN_HEADER]: token },
      body: body.payload,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    const download = await call(`/api/mdo/v1/appeal/${appeal.id}/files/denialLetterFile`, {
      headers: { [APPEAL_TOKEN_HEADER]: token },
    });
    expect(crossed(), 'uploaded on one instance, read on the other').toBe(true);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
  });
});
