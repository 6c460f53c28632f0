import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // Both cores (Vitest's default is one fewer than the machine has: one, here): 102 s -> 63 s (issue 44). Each file
    // keeps its own module graph: the app's module state (the first screen of a visit) is per page load by design.
    maxWorkers: 2,
  },
});
