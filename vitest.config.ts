import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './scripts/vitest-sequencer.ts';

export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'scripts'],
    // Both cores for every project (Vitest's default is one fewer than the machine has: one, here): the web project
    // 102 s -> 63 s (issue 44). One value for all: projects of one sequence group must share it. Web files share their
    // worker's jsdom and start with fresh app modules (apps/web/vitest.config.ts, src/test/setup.ts).
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    reporters: process.env.CI_REPORT_FILE ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI_REPORT_FILE ? { json: process.env.CI_REPORT_FILE } : undefined,
  },
});
