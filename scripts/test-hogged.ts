/**
 * `npm run test:hogged -- [runs]`: the determinism proof of issue 44. A busy loop takes one core for the whole time
 * (as another job on a shared CI machine would) while `npm test` runs `runs` times in a row (3 by default); prints
 * each run's result and time, and how many passed. A test that decides by the clock instead of by events fails here
 * first.
 */
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';

const runs = Number(process.argv[2] ?? 3);
if (!Number.isInteger(runs) || runs < 1 || runs > 10) {
  console.error('test:hogged: the number of runs must be 1 to 10');
  process.exit(1);
}

// The hog: a worker thread spinning until this process ends (one core's worth, never yielding).
const hog = new Worker('for (;;) {}', { eval: true });
hog.unref();

const results: { run: number; ok: boolean; minutes: number }[] = [];
for (let run = 1; run <= runs; run += 1) {
  const started = Date.now();
  console.log(`\n=== npm test ${run} of ${runs}, one core taken by a busy loop ===`);
  const result = spawnSync('npm', ['test'], { stdio: 'inherit', env: process.env });
  results.push({ run, ok: result.status === 0, minutes: (Date.now() - started) / 60_000 });
}
await hog.terminate();
console.log(
  `\nnpm test under a busy core: ${results.filter((r) => r.ok).length} of ${runs} passed (${results
    .map((r) => `${r.ok ? 'passed' : 'FAILED'} ${r.minutes.toFixed(1)} min`)
    .join(', ')})`,
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
