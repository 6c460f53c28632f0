/** The real server as a child process (crash-safety and load suites): start, wait ready, kill -9, stop. */

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DASHBOARD } from '@hcp/contract';
import { DEMO_PASSWORD } from '../../src/seed/index.ts';
import { LOOPBACK_NETWORKS } from './app.ts';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export class Server {
  child: ChildProcess | null = null;
  stderr = '';
  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}
  get base() {
    return `http://127.0.0.1:${this.port}`;
  }
  async start() {
    this.child = spawn(
      process.execPath,
      [...(process.env.CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'src/main.ts'],
      {
        cwd: serverDir,
        env: {
          ...process.env,
          PORT: String(this.port),
          HOST: '127.0.0.1',
          SEED_DEMO: 'on',
          LOG_LEVEL: 'error',
          AUTH_SIGNING_KEY: 'crash-test-signing-key-0123456789abcdefghij',
          AUTH_RATE_LIMIT_PER_MINUTE: '100000',
          HOUSEKEEPING_INTERVAL_SECONDS: '0',
          IDEMPOTENCY_ABANDON_SECONDS: '2',
          DEV_MAIL_LOG: 'off',
          // Receivers of these tests listen on loopback (allowed by name, as in the test app).
          OUTBOUND_ALLOWED_NETWORKS: LOOPBACK_NETWORKS,
          ...this.env,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    this.child.stderr?.on('data', (chunk) => {
      this.stderr = `${this.stderr}${chunk}`.slice(-4000);
    });
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`server exited (${this.child.exitCode}): ${this.stderr}`);
      try {
        if ((await fetch(`${this.base}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`server did not become ready: ${this.stderr}`);
  }
  async kill() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

/** A demo user signed in over HTTP: their id, their tokens and the headers of the portal's calls (spec §7). */
export async function signInOver(
  base: string,
  email: string,
): Promise<{ userId: string; accessToken: string; refreshToken: string; headers: Record<string, string> }> {
  const res = await fetch(`${base}/auth-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, username: email, password: DEMO_PASSWORD, dashboard: DASHBOARD }),
  });
  const { accessToken, refreshToken, userID } = (
    (await res.json()) as { jwtToken: { accessToken: string; refreshToken: string; userID: string } }
  ).jwtToken;
  return { userId: userID, accessToken, refreshToken, headers: { authorization: `Bearer ${accessToken}`, 'x-user-id': userID } };
}
