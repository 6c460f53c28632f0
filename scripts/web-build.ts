/** Decides whether the web build is missing or older than any of its sources. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const WEB_SOURCES = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contract/src',
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function webBuildState(root: string): 'missing' | 'stale' | 'fresh' {
  const index = path.join(root, 'apps/web/dist/index.html');
  if (!existsSync(index)) return 'missing';
  const built = statSync(index).mtimeMs;
  const sources = Math.max(...WEB_SOURCES.map((s) => newestMtime(path.join(root, s))));
  return sources > built ? 'stale' : 'fresh';
}
