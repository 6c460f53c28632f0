/** The slowest test files of a run, from Vitest's JSON report (per file) and Playwright's (its tests summed per file). */

interface VitestReport {
  testResults?: { name: string; startTime?: number; endTime?: number }[];
}
interface PlaywrightSuite {
  file?: string;
  specs?: { tests?: { results?: { duration?: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

function playwrightMs(suite: PlaywrightSuite): number {
  const own = (suite.specs ?? [])
    .flatMap((spec) => spec.tests ?? [])
    .flatMap((test) => test.results ?? [])
    .reduce((sum, result) => sum + (result.duration ?? 0), 0);
  return own + (suite.suites ?? []).reduce((sum, child) => sum + playwrightMs(child), 0);
}

export function slowestFiles(vitest: unknown, playwright: unknown, count: number): { file: string; seconds: number }[] {
  const files: { file: string; seconds: number }[] = [];
  for (const result of (vitest as VitestReport | null)?.testResults ?? []) {
    if (result.startTime !== undefined && result.endTime !== undefined) {
      files.push({ file: path(result.name), seconds: (result.endTime - result.startTime) / 1000 });
    }
  }
  const byFile = new Map<string, number>();
  for (const suite of (playwright as { suites?: PlaywrightSuite[] } | null)?.suites ?? []) {
    const file = `e2e/tests/${suite.file ?? 'unknown'}`;
    byFile.set(file, (byFile.get(file) ?? 0) + playwrightMs(suite));
  }
  for (const [file, ms] of byFile) files.push({ file, seconds: ms / 1000 });
  return files.sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

/** A report's absolute path as the repository names it. */
function path(name: string): string {
  const at = name.search(/\/(apps|packages|scripts|e2e)\//);
  return at === -1 ? name : name.slice(at + 1);
}
