import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    // Each file loads its own database (~0.5-1 GB RSS for PGlite); two at a time fits 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    // Its own group (after the light projects) so its worker cap applies to it alone.
    sequence: { groupOrder: 1 },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
