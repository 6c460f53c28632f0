/** `npm run lint` step: fails when an import breaks DESIGN §1's direction (rules in import-rules.ts). */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFileImports, type Violation } from './import-rules.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['packages/contract', 'apps/server', 'apps/web', 'e2e', 'bench'];

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield full;
  }
}

const violations: Violation[] = [];
let checked = 0;
for (const dir of ROOTS) {
  for await (const file of sourceFiles(path.join(root, dir))) {
    checked += 1;
    const relative = path.relative(root, file).split(path.sep).join('/');
    violations.push(...checkFileImports(relative, await readFile(file, 'utf8')));
  }
}
for (const v of violations) console.error(`${v.file}: import '${v.specifier}' — ${v.rule}`);
console.log(`import direction: ${checked} files checked, ${violations.length} violation(s)`);
process.exitCode = violations.length > 0 ? 1 : 0;
