/** `npm run dev`: API with restart on change (port 3000) and Vite with hot reload (port 5173) proxying to it. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const children: ChildProcess[] = [
  spawn(npx, ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn(npx, ['vite'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' }),
];
console.log('Dev: open http://localhost:5173 (Vite, hot reload). API on http://localhost:3000.');
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
