import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'scripts'],
    reporters: process.env.CI_REPORT_FILE ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI_REPORT_FILE ? { json: process.env.CI_REPORT_FILE } : undefined,
  },
});
