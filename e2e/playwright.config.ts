import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 4310);
// Set once in the runner; workers inherit it, so tests can read the dev mail file of this server.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `hcp-e2e-${process.pid}-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
/** Short access-token life so the tests see silent renewal; the refresh flow keeps sessions alive. */
export const E2E_ACCESS_TOKEN_TTL_SECONDS = 10;
const reportFile = process.env.CI_E2E_REPORT;

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // A journey with several axe scans runs 20-30 s on a loaded 2-core CI machine with two workers; 30 s left no
  // margin (an Rx-list journey timed out at 30.2 s). Assertion waits stay at their 5 s default.
  timeout: 60_000,
  forbidOnly: true,
  reporter: reportFile ? [['list'], ['json', { outputFile: reportFile }]] : [['list']],
  // The journeys (`npm test`) and the measures (`npm run test:measure`, run by .ci/run after npm test): the measures
  // clear 100 items and sign 40 on servers of their own, minutes that prove speed, not behaviour (issue 44).
  projects: [
    { name: 'journeys', testIgnore: [/-measure\.spec\.ts$/, /prescribe\.spec\.ts$/, /pharmacy-client\.spec\.ts$/] },
    // Dr. Morgan's one draft is cleared by any prescription he sends, and the Rx-list journey sends a hundred through
    // the API: the draft journeys run once the others are done, decided by the runner, not by which worker is faster.
    { name: 'prescribe', testMatch: /prescribe\.spec\.ts$/, dependencies: ['journeys'] },
    // The pharmacy client's webhook endpoint hears every refill authorised while it is on, and the webhooks journey
    // waits for its own decision to read "delivered" by every endpoint: it runs once the journeys are done.
    { name: 'pharmacy-client', testMatch: /pharmacy-client\.spec\.ts$/, dependencies: ['journeys'] },
    { name: 'measure', testMatch: /-measure\.spec\.ts$/ },
  ],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'off',
  },
  webServer: {
    // The built app served by the real server on a fresh embedded database with demo data.
    command: 'node --import tsx ../apps/server/src/main.ts',
    url: `http://localhost:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'on',
      LOG_LEVEL: 'warn',
      HOST: 'localhost',
      ACCESS_TOKEN_TTL_SECONDS: String(E2E_ACCESS_TOKEN_TTL_SECONDS),
      AUTH_RATE_LIMIT_PER_MINUTE: '300',
      // Office notices go out within a second of a pharmacy request (office-notices.spec.ts).
      DIGEST_POLL_SECONDS: '1',
      // The webhook receiver of webhooks.spec.ts listens on loopback, which the outbound guard refuses by default.
      OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
    },
  },
});
