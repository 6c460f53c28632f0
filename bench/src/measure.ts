/** Shared helpers: every benchmark reports a ratio to a baseline measured in the same run. */
import autocannon from 'autocannon';

export interface HttpResult {
  requestsPerSecond: number;
  p99Ms: number;
}

export async function load(
  url: string,
  seconds: number,
  connections = 10,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}

export function timeLoop(fn: () => void, minMs = 1500): number {
  for (let i = 0; i < 3; i += 1) fn();
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    fn();
    runs += 1;
  }
  return (performance.now() - start) / runs;
}

export function report(name: string, subject: string, baseline: string, ratio: number, detail: string): void {
  console.log(`${name}: ${subject} vs ${baseline} = ${ratio.toFixed(2)}x  (${detail})`);
}

/** The value below which a share `q` of the values fall (nearest rank). */
export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
