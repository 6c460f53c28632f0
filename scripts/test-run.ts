/**
 * `npm test` (issue 44): every step in order, stopping at the first that fails — the browser (installed where this
 * process may), lint, types, the supply chain, every Vitest project, the web build and the browser journeys — then the
 * time it took and the ten slowest test files, read from the runners' own reports. The measures (`npm run
 * test:measure`) and the PostgreSQL and load runs are .ci/run's, after this.
 *
 * CI_REPORT_FILE and CI_E2E_REPORT name where the reports go (.ci/run sums them); otherwise a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { slowestFiles } from './test-summary.ts';

const reports = mkdtempSync(path.join(os.tmpdir(), 'hcp-test-'));
const vitestReport = process.env.CI_REPORT_FILE ?? path.join(reports, 'vitest.json');
const e2eReport = process.env.CI_E2E_REPORT ?? path.join(reports, 'e2e.json');
const env = { ...process.env, CI_REPORT_FILE: vitestReport, CI_E2E_REPORT: e2eReport };

const STEPS: [string, string[]][] = [
  ['browser', [process.execPath, '--import', 'tsx', 'scripts/require-chromium.ts']],
  ['lint', ['npm', 'run', 'lint']],
  ['types', ['npm', 'run', 'typecheck']],
  ['supply chain', ['npm', 'run', 'check:supply-chain']],
  ['vitest', ['npx', 'vitest', 'run']],
  ['web build', ['npm', 'run', 'build']],
  ['browser journeys', ['npm', 'test', '-w', '@hcp/e2e']],
];

const started = Date.now();
const took: string[] = [];
let failed: string | null = null;
for (const [name, [command, ...args]] of STEPS) {
  const stepStart = Date.now();
  const result = spawnSync(command as string, args, { stdio: 'inherit', env });
  took.push(`${name} ${Math.round((Date.now() - stepStart) / 1000)} s`);
  if (result.status !== 0) {
    failed = name;
    break;
  }
}

const read = (file: string) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
};
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(`\nnpm test ${failed ? `failed at "${failed}"` : 'passed'} in ${minutes} min (${took.join(', ')})`);
const slowest = slowestFiles(read(vitestReport), read(e2eReport), 10);
if (slowest.length > 0) {
  console.log('The ten slowest test files:');
  for (const { file, seconds } of slowest) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
}
process.exit(failed ? 1 : 0);
