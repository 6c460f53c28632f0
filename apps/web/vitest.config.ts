import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    environment: 'jsdom',
    // One jsdom and one module registry per worker, not per file (issue 44: the project 63 s -> 24 s, a third of the
    // CPU). What a file could leak is reset where each file starts (src/test/setup.ts): the app's own modules are
    // loaded afresh, the document is blank at the root. Proved by running the files in shuffled orders in one worker.
    isolate: false,
    setupFiles: ['src/test/setup.ts'],
  },
});
