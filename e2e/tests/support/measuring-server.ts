/**
 * A server of a measure's own (its own data folder), so no other journey's items move under it, and a counter of
 * what the user does (issue 22's and issue 23's measures).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD, expect } from '../fixtures.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer(dataDir: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '../apps/server/src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'on',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      DIGEST_POLL_SECONDS: '0',
      DEV_MAIL_LOG: 'off',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the measuring server exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('the measuring server did not get ready in 2 minutes');
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Counts what the user does: a click is one, a key is one, typed text one per character. */
export class Counter {
  clicks = 0;
  keys = 0;
  constructor(readonly page: Page) {}
  async click(target: Locator) {
    await target.click({ timeout: 15_000 });
    this.clicks += 1;
  }
  async press(key: string) {
    await this.page.keyboard.press(key);
    this.keys += 1;
  }
  /** Texts typed and their characters: the clinical content both paths type alike. */
  texts = 0;
  typedChars = 0;
  async type(field: Locator, text: string) {
    await field.fill(text);
    this.typed(text);
  }
  /** Text typed where focus already is. */
  async typeHere(text: string) {
    await this.page.keyboard.insertText(text);
    this.typed(text);
  }
  private typed(text: string) {
    this.keys += text.length;
    this.texts += 1;
    this.typedChars += text.length;
  }
  /** The other way such figures are quoted: each typed text one interaction, whatever its length. */
  get perField() {
    return this.total - this.typedChars + this.texts;
  }
  get total() {
    return this.clicks + this.keys;
  }
}

export interface MeasuringServer {
  base: string;
  dataDir: string;
  /** The demo prescriber's NPI (the simulator's requests are for them). */
  npi: string;
  server: ChildProcess;
}

/**
 * Starts a server of its own with the demo data, then empties the demo prescriber's own queue through the embedded
 * database between two starts, so a measure clears exactly the items it makes.
 */
export async function startMeasuringServer(): Promise<MeasuringServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hcp-measure-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer(dataDir, port);
  await stopServer(server);
  const db = new PGlite(path.join(dataDir, 'pglite'));
  await db.query(`update prescriptions set needs_refill_auth = false, phone_exception = false, substitution_status = null,
    prior_auth_status = null, hcp_action_required = false
    where md_office_id = (select id from md_offices where name = 'Morgan Family Medicine')`);
  await db.close();
  server = await startServer(dataDir, port);
  // The server writes the demo pharmacy's file just after it starts answering (main.ts): wait for it.
  const simulatorFile = path.join(dataDir, 'pharmacy-simulator.json');
  const readNpi = () => {
    try {
      return (JSON.parse(readFileSync(simulatorFile, 'utf8')) as { demoPrescriberNpi: string }).demoPrescriberNpi;
    } catch {
      return null; // not written yet, or half written
    }
  };
  await expect.poll(readNpi, { timeout: 60_000 }).not.toBeNull();
  return { base, dataDir, npi: readNpi() as string, server };
}

/** Signs a demo user in on the measuring server and puts the session into the page, as the login page would. */
export async function signInOn(page: Page, base: string, email: string) {
  const login = await page.request.post(`${base}/auth-service/login`, {
    data: { email, username: email, password: DEMO_PASSWORD, dashboard: 'MD Dashboard' },
  });
  const tokens = (await login.json()).jwtToken as SessionTokens;
  await putSession(page, base, tokens);
  return tokens;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  userID: string;
}

/** Puts a session into the page on `base`, as the login page would (the tutorial already seen). */
export async function putSession(page: Page, base: string, tokens: SessionTokens) {
  await page.goto(`${base}/login`);
  await page.evaluate((t) => {
    window.localStorage.setItem('hcp.accessToken', t.accessToken);
    window.localStorage.setItem('hcp.refreshToken', t.refreshToken);
    window.localStorage.setItem('hcp.userId', t.userID);
    window.localStorage.setItem('hcp.tutorialDismissed', 'true');
  }, tokens);
}

/** How many items wait in the signed-in user's queue, from the server (said plainly when it answers otherwise). */
export function queueLength(page: Page, base: string, tokens: { accessToken: string; userID: string }) {
  return async (): Promise<number> => {
    const res = await page.request.get(`${base}/api/mdo/v2/users/${tokens.userID}/action-queue`, {
      headers: { authorization: `Bearer ${tokens.accessToken}`, 'x-user-id': tokens.userID },
    });
    // A bare JSON parse error would say nothing about why.
    if (!res.ok()) throw new Error(`the queue answered ${res.status()}: ${await res.text()}`);
    return ((await res.json()).items as unknown[]).length;
  };
}
