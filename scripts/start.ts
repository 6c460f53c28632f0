/** `npm start`: build the web app when missing or stale, then serve app and API from one process. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webBuildState } from './web-build.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const state = webBuildState(root);
if (state !== 'fresh') {
  console.log(state === 'missing' ? 'Building the web app (first start)…' : 'Web app sources changed; rebuilding…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '--silent', '-w', '@hcp/web', '--', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('hcp-portal: the web app failed to build; see the messages above.');
    process.exit(result.status ?? 1);
  }
}
await import('../apps/server/src/main.ts');
