/** Shared helpers: every benchmark reports a ratio to a baseline measured in the same run, in interleaved rounds. */
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

/** The value below which a share `q` of the values fall (nearest rank). */
export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/**
 * A ratio from interleaved rounds (A, B, A, B, ...) on this shared machine: each round measures the subject and
 * then the baseline back to back, so a busy moment weighs on both. One round of each first warms both up (JIT,
 * caches, connections) and is not counted. Prints the median ratio with min and max, and says so when the spread is
 * wider than ±15 % of the median.
 */
export async function interleavedRatio(
  name: string,
  subject: string,
  baseline: string,
  rounds: number,
  measureSubject: () => Promise<number>,
  measureBaseline: () => Promise<number>,
  detail: (medianSubject: number, medianBaseline: number) => string,
): Promise<number> {
  const ratios: number[] = [];
  const subjects: number[] = [];
  const baselines: number[] = [];
  await measureSubject();
  await measureBaseline();
  for (let round = 0; round < rounds; round += 1) {
    const s = await measureSubject();
    const b = await measureBaseline();
    subjects.push(s);
    baselines.push(b);
    ratios.push(s / b);
  }
  const median = quantile(ratios, 0.5);
  const min = Math.min(...ratios);
  const max = Math.max(...ratios);
  const wide = max > median * 1.15 || min < median * 0.85;
  console.log(
    `${name}: ${subject} vs ${baseline} = ${median.toFixed(2)}x median of ${rounds} interleaved rounds ` +
      `(min ${min.toFixed(2)}, max ${max.toFixed(2)}${wide ? '; spread wider than ±15 %' : ''}; ` +
      `${detail(quantile(subjects, 0.5), quantile(baselines, 0.5))})`,
  );
  return median;
}

/** `runs` requests one after the other: each one's time in ms, with p50 and p95. A failed answer stops the bench. */
export async function timeRequests(runs: number, call: () => Promise<Response>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    const res = await call();
    if (!res.ok) throw new Error(`bench: answer ${res.status} from ${new URL(res.url).pathname}`);
    await res.arrayBuffer();
    times.push(performance.now() - start);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), times };
}
