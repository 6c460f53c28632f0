/**
 * First step of `npm test` and `npm run test:e2e`: the browser tests need Debian's Chromium. Where this process may
 * install it (root with apt-get, the default path) it does, as `.ci/run` does, so `npm test` is the one command on a
 * fresh machine (issue 44); otherwise it stops at once with the command that fixes it, instead of failing the browser
 * tests after the rest has run (issue 21).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { CHROMIUM_PATH, chromiumMissingMessage, chromiumPlan } from './chromium.ts';

const present = () => {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
const isRoot = process.getuid?.() === 0;
const plan = chromiumPlan({ present: present(), isRoot, hasApt, customPath: process.env.CHROMIUM_PATH !== undefined });

if (plan === 'install') {
  console.log('Chromium is missing: installing Debian’s package (apt-get install chromium), once…');
  // apt's progress is noise in a test run: kept, and shown only when the install fails.
  const run = (args: string[]) =>
    spawnSync('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, encoding: 'utf8' });
  const update = run(['update', '-qq']);
  const install = update.status === 0 ? run(['install', '-y', '-qq', 'chromium']) : update;
  if (install.status !== 0 || !present()) {
    console.error(`${install.stdout ?? ''}${install.stderr ?? ''}`.split('\n').slice(-20).join('\n'));
    console.error(chromiumMissingMessage(CHROMIUM_PATH, isRoot));
    process.exit(1);
  }
} else if (plan === 'ask') {
  console.error(chromiumMissingMessage(CHROMIUM_PATH, isRoot));
  process.exit(1);
}
