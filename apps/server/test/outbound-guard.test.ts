/**
 * The outbound guard (issue 43; decision 0050): every spelling of an internal address the outsider used, and names
 * that resolve inside, are refused before any connection is made, by the guard alone and through each caller (webhook
 * registration and delivery, an integration client's key set, the fax gateway, object storage). Proof of "no
 * connection": a loopback server every loopback spelling points at counts zero connections, and undici reports no
 * connection made; the same spellings reach that server once loopback is allowed, so they really point there.
 *
 * Nothing here leaves the machine: names are answered by an injected resolver, and other internal addresses are
 * refused before a socket exists.
 */
import diagnostics from 'node:diagnostics_channel';
import { readdir, readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import type { Tokens } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { NOT_CALLED_MESSAGE } from '../src/features/fhir/webhooks/deliver.ts';
import { registerClient } from '../src/features/integrations/clients.ts';
import { KEY_SET_UNREADABLE } from '../src/features/integrations/token-endpoint.ts';
import { httpFaxTransport, PermanentFaxError } from '../src/lib/fax-gateway.ts';
import { createS3FileStore } from '../src/lib/file-store/s3.ts';
import {
  addressProblem,
  createOutboundGuard,
  INTERNAL_ADDRESS_MESSAGE,
  OutboundRefusedError,
  parseNetworks,
  type Resolve,
} from '../src/lib/outbound/guard.ts';
import { refillRequests } from './support/action-needed.ts';
import { buildTestApp, LOOPBACK_NETWORKS, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';
import { requestToken } from './support/fhir.ts';

/** Answers for names, as a DNS server would give them; every other name does not exist. */
const NAMES: Record<string, { address: string; family: number }[]> = {
  'pharmacy-internal.example': [{ address: '10.0.0.5', family: 4 }],
  'metadata.example': [{ address: '169.254.169.254', family: 4 }],
  'v6-internal.example': [{ address: 'fd12:3456::1', family: 6 }],
  // One public answer and one internal: any internal answer refuses the name.
  'rebind.example': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'loopback.example': [{ address: '127.0.0.1', family: 4 }],
};
const resolve: Resolve = async (hostname) => {
  const answer = NAMES[hostname];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
};

let target: Server;
const sockets = new Set<Socket>();
let port: number;
let connections = 0;
let undiciConnections = 0;
const onConnected = () => {
  undiciConnections += 1;
};

beforeAll(async () => {
  target = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
  diagnostics.subscribe('undici:client:connected', onConnected);
});
afterAll(async () => {
  diagnostics.unsubscribe('undici:client:connected', onConnected);
  for (const socket of sockets) socket.destroy();
  await new Promise((r) => target.close(r));
});

/** Every spelling of an internal address the outsider tried, and the other internal ranges, each with its kind. */
const INTERNAL = (p: number): [string, string][] => [
  [`http://2130706433:${p}/`, 'loopback'],
  [`http://0x7f000001:${p}/`, 'loopback'],
  [`http://0177.0.0.1:${p}/`, 'loopback'],
  [`http://017700000001:${p}/`, 'loopback'],
  [`http://127.1:${p}/`, 'loopback'],
  [`http://0x7f.0.0.1:${p}/`, 'loopback'],
  [`http://127.0.0.1:${p}/`, 'loopback'],
  [`http://[::ffff:127.0.0.1]:${p}/`, 'loopback'],
  [`http://[0:0:0:0:0:ffff:7f00:1]:${p}/`, 'loopback'],
  [`http://[::1]:${p}/`, 'loopback'],
  [`http://0.0.0.0:${p}/`, 'unspecified'],
  [`http://0:${p}/`, 'unspecified'],
  [`http://[::]:${p}/`, 'unspecified'],
  ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
  ['https://169.254.169.254/', 'linkLocal'],
  ['http://[fe80::1]/', 'linkLocal'],
  ['https://10.0.0.5/', 'private'],
  ['http://172.16.3.4/', 'private'],
  ['http://192.168.1.1/', 'private'],
  ['http://100.64.0.1/', 'carrierGradeNat'],
  ['http://[fd00::1]/', 'uniqueLocal'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://[64:ff9b::7f00:1]/', 'rfc6052'],
  ['http://[2002:7f00:1::]/', '6to4'],
  ['http://[2001::1]/', 'teredo'],
];
/** Names: circled Unicode 'localhost' (IDNA maps it to localhost), and names that resolve inside. */
const INTERNAL_NAMES = (p: number): [string, string][] => [
  [`http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${p}/`, 'loopback'],
  [`http://localhost:${p}/`, 'loopback'],
  [`http://LOCALHOST.:${p}/`, 'loopback'],
  [`http://loopback.example:${p}/`, 'loopback'],
  [`http://rebind.example:${p}/`, 'loopback'],
  ['https://pharmacy-internal.example/hooks', 'private'],
  ['https://metadata.example/', 'linkLocal'],
  ['https://v6-internal.example/', 'uniqueLocal'],
];
// 'localhost' is answered by the system's resolver in the real guard; here the injected one knows it too.
NAMES.localhost = [{ address: '127.0.0.1', family: 4 }];
NAMES['localhost.'] = NAMES.localhost;

/** A client whose keys are at `jwksUrl` (registered past the API's check) asks for a token: the server fetches the set. */
async function tokenWithKeySetAt(t: TestApp, jwksUrl: string) {
  const { privateKey } = await generateKeyPair('ES384', { extractable: true });
  const [tenant] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.key, 'main'));
  const client = await registerClient(t.database.db, {
    name: 'Key set elsewhere',
    jwksUrl,
    scopes: ['system/Task.read'],
    tenantId: tenant?.id as string,
    createdBy: null,
  });
  return requestToken(t, {
    clientId: client.clientId,
    privateKey,
    publicUrl: 'https://portal.test',
    scope: 'system/Task.read',
  });
}

describe('the outbound guard', () => {
  it('refuses every spelling of an internal address and every name resolving inside, connecting nowhere', async () => {
    const guard = createOutboundGuard({ allowedNetworks: [], resolve });
    const before = { connections, undiciConnections };
    const rows: string[] = [];
    for (const [url, kind] of [...INTERNAL(port), ...INTERNAL_NAMES(port)]) {
      const error = await guard.fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, url).toBeInstanceOf(OutboundRefusedError);
      expect((error as OutboundRefusedError).reason, url).toBe(kind);
      rows.push(`${url} -> ${kind}`);
    }
    expect({ connections, undiciConnections }).toEqual(before);
    await guard.close();
    process.stdout.write(`\noutbound guard: ${rows.length} internal addresses and names refused, 0 connections\n`);
  });

  it('lets the same spellings reach the loopback server once loopback is allowed by name (they do point there)', async () => {
    const guard = createOutboundGuard({ allowedNetworks: parseNetworks(LOOPBACK_NETWORKS), resolve });
    const loopback = [...INTERNAL(port), ...INTERNAL_NAMES(port)].filter(
      ([url, kind]) => kind === 'loopback' && !url.includes('[::1]') && !url.includes('rebind'),
    );
    const before = connections;
    for (const [url] of loopback) {
      const res = await guard.fetch(url, { signal: AbortSignal.timeout(5_000) });
      expect(res.status, url).toBe(204);
    }
    expect(connections - before).toBe(loopback.length);
    // A name with one public and one internal answer stays refused: the internal answer is not in the allowed list.
    const strict = createOutboundGuard({ allowedNetworks: parseNetworks('127.0.0.0/8'), resolve });
    NAMES['mixed.example'] = [
      { address: '127.0.0.1', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    await expect(strict.fetch(`http://mixed.example:${port}/`)).rejects.toMatchObject({ reason: 'private' });
    await guard.close();
    await strict.close();
  });

  it('judges addresses the same in every notation, public unicast alone passing', () => {
    expect(addressProblem('93.184.216.34', [])).toBeNull();
    expect(addressProblem('2606:4700::1111', [])).toBeNull();
    expect(addressProblem('::ffff:93.184.216.34', [])).toBeNull();
    expect(addressProblem('::ffff:10.0.0.1', [])).toBe('private');
    expect(addressProblem('10.0.0.1', parseNetworks('10.0.0.0/8'))).toBeNull();
    expect(addressProblem('10.0.0.1', parseNetworks('10.0.1.0/24'))).toBe('private');
    expect(() => parseNetworks('10.0.0.0/8,not-a-network')).toThrow(/'not-a-network'/);
  });

  it('refuses internal addresses at registration with one message, and takes public ones', () => {
    const guard = createOutboundGuard({ allowedNetworks: [], resolve });
    for (const [url] of [...INTERNAL(port), ...INTERNAL_NAMES(port).slice(0, 3)]) {
      expect(guard.urlProblem(url), url).toBe(INTERNAL_ADDRESS_MESSAGE);
    }
    expect(guard.urlProblem('https://pharmacy.example.com/hooks')).toBeNull();
    expect(guard.urlProblem('https://user:pw@pharmacy.example.com/')).toMatch(/passwords/);
    expect(guard.urlProblem('ftp://pharmacy.example.com/')).toMatch(/https/);
    expect(guard.urlProblem('file:///etc/passwd')).toMatch(/https/);
  });

  it('never follows a redirect and caps a body it reads', async () => {
    const server = createHttpServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      } else {
        response.end('x'.repeat(10_000));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const guard = createOutboundGuard({ allowedNetworks: parseNetworks(LOOPBACK_NETWORKS), resolve });
    const redirected = await guard.fetch(`${base}/redirect`);
    expect(redirected.status).toBe(302);
    await expect(guard.fetch(`${base}/big`, { maxBodyBytes: 1_000 })).rejects.toThrow(/larger than 1000 bytes/);
    expect(await (await guard.fetch(`${base}/big`, { maxBodyBytes: 20_000 })).text()).toHaveLength(10_000);
    await guard.close();
    await new Promise((r) => server.close(r));
  });

  it('is the door of the fax gateway and of object storage too', async () => {
    const guard = createOutboundGuard({ allowedNetworks: [], resolve });
    const before = connections;
    const fax = httpFaxTransport({
      url: `http://127.1:${port}/faxes`,
      key: 'k'.repeat(16),
      timeoutMs: 5_000,
      fetch: guard.fetch,
    });
    await expect(fax.send({ to: '6145550100', pdf: Buffer.from('%PDF-1.7'), reference: 'r1' })).rejects.toBeInstanceOf(
      PermanentFaxError,
    );
    const store = createS3FileStore(
      {
        endpoint: `http://2130706433:${port}`,
        bucket: 'b',
        prefix: '',
        region: 'us-east-1',
        accessKeyId: 'k',
        secretAccessKey: 's',
      },
      guard.fetch,
    );
    await expect(store.remove('some-key')).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(connections).toBe(before);
    await guard.close();
  });
});

describe('by construction', () => {
  it('no server code calls out but through the guard (no fetch, http.request, undici or remote key set of its own)', async () => {
    const root = path.resolve(import.meta.dirname, '../src');
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts') && !f.startsWith('lib/outbound/'));
    // A call of the global fetch (not `guard.fetch(`, `options.fetch(`), a request of node's http(s), undici's own
    // entry points, or jose's remote key set (which fetches by itself).
    const OUTBOUND =
      /(?<![.\w])fetch\(|\bhttps?\.(request|get)\(|from 'node:https'|from 'undici'(?!;? *\/\/ types)|\bcreateRemoteJWKSet\b/;
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(root, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (OUTBOUND.test(line) && !/^\s*(\/\/|\*)/.test(line) && !/^import type /.test(line)) {
          offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});

describe('through the portal, with no network allowed', () => {
  let t: TestApp;
  let admin: Tokens;
  let morgan: Tokens;
  beforeAll(async () => {
    // The production default: nothing internal allowed (the other suites allow loopback by name).
    t = await buildTestApp({ env: { OUTBOUND_ALLOWED_NETWORKS: '', PUBLIC_URL: 'https://portal.test' } });
    admin = await signIn(t.app, 'admin@demo.hcp');
    morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
  });
  afterAll(() => t.close());

  it('refuses a webhook endpoint or a key set address inside, naming the field, writing nothing', async () => {
    const endpointsBefore = await t.database.db.select({ id: s.webhookEndpoints.id }).from(s.webhookEndpoints);
    const clientsBefore = await t.database.db.select({ id: s.integrationClients.id }).from(s.integrationClients);
    for (const [url] of [...INTERNAL(port), ...INTERNAL_NAMES(port).slice(0, 3)]) {
      const hook = await injectAs(t.app, admin, {
        method: 'POST',
        url: '/api/mdo/v1/webhook-endpoints',
        payload: { url, events: ['refill.authorized'] },
      });
      expect(hook.statusCode, `${url} ${hook.body}`).toBe(400);
      expect(hook.json().error.details).toEqual([{ path: 'body.url', message: INTERNAL_ADDRESS_MESSAGE }]);
      if (!url.startsWith('https://')) continue;
      const client = await injectAs(t.app, admin, {
        method: 'POST',
        url: '/api/mdo/v1/integration-clients',
        payload: { name: 'Internal keys', jwksUrl: url, scopes: ['system/Task.read'] },
      });
      expect(client.statusCode, `${url} ${client.body}`).toBe(400);
      expect(client.json().error.details).toEqual([{ path: 'body.jwksUrl', message: INTERNAL_ADDRESS_MESSAGE }]);
    }
    expect(await t.database.db.select({ id: s.webhookEndpoints.id }).from(s.webhookEndpoints)).toEqual(endpointsBefore);
    expect(await t.database.db.select({ id: s.integrationClients.id }).from(s.integrationClients)).toEqual(clientsBefore);
  });

  it('records a delivery to an address that is internal now as not sent, the same for every kind, connecting nowhere', async () => {
    // As if registered before the guard (or pointed inside since): the row is written past the API's check.
    const [tenant] = await t.database.db.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.key, 'main'));
    const [row] = await t.database.db
      .insert(s.webhookEndpoints)
      .values({
        tenantId: tenant?.id as string,
        url: `http://0x7f000001:${port}/hooks`,
        events: ['refill.authorized'],
        secret: `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`,
      })
      .returning();
    const [entry] = await refillRequests(t.app, morgan);
    const before = connections;
    const res = await injectAs(t.app, morgan, {
      method: 'POST',
      url: `/api/mdo/v1/prescriptions/${entry?.prescription.id}/refills-authorized/fax`,
      payload: { refills: 1, sig: 'Take one daily', senderName: 'Dr Morgan' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.webhookWorker.runOnce();
    const deliveries = await injectAs(t.app, admin, {
      method: 'GET',
      url: `/api/mdo/v1/webhook-endpoints/${row?.id}/deliveries`,
    });
    expect(deliveries.statusCode).toBe(200);
    const [delivery] = deliveries.json().records as { lastError: string | null; lastStatus: number | null }[];
    expect(delivery).toMatchObject({ lastError: NOT_CALLED_MESSAGE, lastStatus: null, attempts: 1 });
    expect(connections).toBe(before);
  });

  it('answers 401 in the OAuth shape when a client key set cannot be read, never 500', async () => {
    const before = connections;
    for (const jwksUrl of [
      `https://127.0.0.1:${port}/jwks`,
      'https://169.254.169.254/jwks',
      `https://[::ffff:127.0.0.1]:${port}/jwks`,
    ]) {
      const res = await tokenWithKeySetAt(t, jwksUrl);
      expect(res.statusCode, `${jwksUrl} ${res.body}`).toBe(401);
      expect(res.json()).toEqual({ error: 'invalid_client', error_description: KEY_SET_UNREADABLE });
    }
    expect(connections).toBe(before);
  });
});

describe('key sets that fail on the wire (loopback allowed)', () => {
  it('answers 401, never 500, when the key set refuses the connection, speaks no TLS or answers junk', async () => {
    const t = await buildTestApp({ env: { PUBLIC_URL: 'https://portal.test' } });
    const plain = createHttpServer((_q, r) => r.end('not a key set'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    try {
      for (const jwksUrl of [
        `https://127.0.0.1:${closedPort}/jwks`,
        // TLS to a server that speaks plain HTTP: the handshake fails.
        `https://127.0.0.1:${(plain.address() as AddressInfo).port}/jwks`,
      ]) {
        const res = await tokenWithKeySetAt(t, jwksUrl);
        expect(res.statusCode, `${jwksUrl} ${res.body}`).toBe(401);
        expect(res.json()).toEqual({ error: 'invalid_client', error_description: KEY_SET_UNREADABLE });
      }
    } finally {
      await new Promise((r) => plain.close(r));
      await t.close();
    }
  });
});
