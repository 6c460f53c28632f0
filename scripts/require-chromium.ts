/**
 * First step of `npm test`: without Chromium the browser tests would fail after twenty minutes of the
 * others; stop at once instead, with the command that fixes it (issue 21). `.ci/run` installs it first.
 */
import { accessSync, constants } from 'node:fs';
import { CHROMIUM_PATH, chromiumMissingMessage } from './chromium.ts';

try {
  accessSync(CHROMIUM_PATH, constants.X_OK);
} catch {
  console.error(chromiumMissingMessage(CHROMIUM_PATH, process.getuid?.() === 0));
  process.exit(1);
}
