/** Runs the real entry point as a child process, as `npm start` does. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'hcp-startup-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      SEED_DEMO: 'off',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

async function waitFor(check: () => string | null, ms: number, child: ChildProcess): Promise<string> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = check();
    if (value) return value;
    if (child.exitCode !== null) throw new Error('process exited early');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting for the server');
}

describe('process start-up and shutdown', () => {
  it('starts, is alive at once, ready once warmed up, and exits 0 on SIGTERM after closing the database', async () => {
    const proc = run({ LOG_LEVEL: 'info' });
    const url = await waitFor(() => /running at (http:\/\/\S+)/.exec(proc.out())?.[1] ?? null, 45_000, proc.child);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // Ready is decided by the warm-up's own line (issue 45), not by how long it has been.
    await waitFor(() => (proc.out().includes('warmed up: ready for traffic') ? 'warm' : null), 45_000, proc.child);
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 60_000);

  it('a busy port gives one clear line and exit 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, 'localhost', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const proc = run({ PORT: String(port) });
      expect(await proc.exited).toBe(1);
      expect(proc.err().trim()).toBe(
        `hcp-portal: Port ${port} is already in use. Stop the other process or set PORT to a free port.`,
      );
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('an invalid variable stops start-up with one line naming it', async () => {
    const proc = run({ PORT: 'eighty' });
    expect(await proc.exited).toBe(1);
    expect(proc.err().trim()).toBe("hcp-portal: Invalid configuration: PORT must be a number (got 'eighty')");
  }, 30_000);

  it('an unusable data directory gives a clear message', async () => {
    const file = path.join(dataDir, 'not-a-folder');
    await writeFile(file, '');
    const proc = run({ DATA_DIR: file });
    expect(await proc.exited).toBe(1);
    expect(proc.err().trim()).toBe(
      `hcp-portal: DATA_DIR '${file}/pglite' is not writable (ENOTDIR); set DATA_DIR to a writable folder.`,
    );
  }, 30_000);
});
