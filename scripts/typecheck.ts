/**
 * `npm run typecheck`: every workspace's `tsc --noEmit` and the scripts', two at a time (issue 44). One after another
 * they took 65-89 s on this 2-core machine with one core idle; each is a single-threaded compiler of its own. A
 * failing project prints its errors; the command fails when any does.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/**
 * Largest first, so the long ones do not start last. The server, the benches and the scripts share their compiler
 * options and the benches and scripts import the server: one program (tsconfig.node.json) checks the three, the
 * server once instead of three times (61 s -> about 30 s of compiler). Their own tsconfig.json stay for editors.
 */
const PROJECTS = ['tsconfig.node.json', 'apps/web', 'e2e', 'packages/contract'];
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const parallel = Math.max(1, Math.min(2, os.availableParallelism()));

function check(project: string): Promise<{ project: string; ok: boolean; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ project, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const queue = [...PROJECTS];
const results: Awaited<ReturnType<typeof check>>[] = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) results.push(await check(project));
  }),
);
for (const result of results) {
  if (!result.ok) process.stdout.write(`\n${result.project}: type errors\n${result.output}`);
}
const failed = results.filter((r) => !r.ok);
console.log(
  `types: ${PROJECTS.length - failed.length} of ${PROJECTS.length} projects clean (${results
    .map((r) => `${r.project} ${r.seconds.toFixed(0)} s`)
    .join(', ')})`,
);
process.exit(failed.length > 0 ? 1 : 0);
