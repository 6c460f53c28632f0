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
// The demo: a webhook receiver or key set tried out on this machine listens on loopback, which the outbound guard
// refuses everywhere else (decision 0050). Said here, by name; set OUTBOUND_ALLOWED_NETWORKS to change it.
if (process.env.OUTBOUND_ALLOWED_NETWORKS === undefined) process.env.OUTBOUND_ALLOWED_NETWORKS = '127.0.0.0/8,::1/128';
await import('../apps/server/src/main.ts');
