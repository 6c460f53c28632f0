/** Debian's Chromium and the flags this machine needs (no downloads: `npx playwright install` fails here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * What `npm test` does about the browser (issue 44): nothing when it is there; install Debian's package itself where it
 * can (root, apt-get, and the default path, as `.ci/run` does); otherwise stop at once with the one command to run.
 */
export function chromiumPlan(machine: {
  present: boolean;
  isRoot: boolean;
  hasApt: boolean;
  /** CHROMIUM_PATH names another binary: that one is the user's to provide. */
  customPath: boolean;
}): 'ready' | 'install' | 'ask' {
  if (machine.present) return 'ready';
  return machine.isRoot && machine.hasApt && !machine.customPath ? 'install' : 'ask';
}

/** The one line that fixes a missing browser, for `npm test` to print before it starts anything. */
export function chromiumMissingMessage(path: string, isRoot: boolean): string {
  const install = `${isRoot ? '' : 'sudo '}apt-get update && ${isRoot ? '' : 'sudo '}apt-get install -y chromium`;
  return `npm test needs Chromium for the browser tests and found none at ${path}. Run: ${install}  (or set CHROMIUM_PATH to a Chromium binary)`;
}
