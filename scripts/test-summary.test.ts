import { describe, expect, it } from 'vitest';
import { slowestFiles } from './test-summary.ts';

describe('the ten slowest test files', () => {
  it('reads both reports, sums a browser file’s tests, and sorts the slowest first', () => {
    const vitest = {
      testResults: [
        { name: '/x/repo/apps/server/test/a.test.ts', startTime: 1_000, endTime: 31_000 },
        { name: '/x/repo/packages/contract/test/b.test.ts', startTime: 0, endTime: 500 },
        { name: '/x/repo/apps/web/src/c.test.tsx' },
      ],
    };
    const playwright = {
      suites: [
        {
          file: 'rx-list.spec.ts',
          specs: [{ tests: [{ results: [{ duration: 20_000 }] }] }],
          suites: [{ specs: [{ tests: [{ results: [{ duration: 25_000 }, { duration: 1_000 }] }] }] }],
        },
      ],
    };
    expect(slowestFiles(vitest, playwright, 2)).toEqual([
      { file: 'e2e/tests/rx-list.spec.ts', seconds: 46 },
      { file: 'apps/server/test/a.test.ts', seconds: 30 },
    ]);
    expect(slowestFiles(null, null, 10)).toEqual([]);
  });
});
