/** `npm run bench`: every line is "name: subject vs baseline = ratio". BENCH_SECONDS sets each HTTP run. */
import { actionNeededBench } from './action-needed.ts';
import { compressionBench } from './compression.ts';
import { fhirBench } from './fhir.ts';
import { httpOverhead } from './http-overhead.ts';
import { liveUpdatesBench } from './live-updates.ts';
import { rulesBench } from './rules.ts';
import { rxListRenderBench } from './rx-list-render.ts';
import { signInBench } from './sign-in.ts';
import { webhooksBench } from './webhooks.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
console.log(`HCP Portal benchmarks (HTTP runs of ${seconds} s, 10 connections, 2-core machine)`);
// BENCH_ONLY=action-queue: the large-seed benches up to the queue only (a quicker run while working on it);
// BENCH_ONLY=fhir: the pharmacy door and standing rules on arrival only; BENCH_ONLY=compression: the large list's
// compression only.
const only = process.env.BENCH_ONLY;
if (only === 'fhir') {
  await fhirBench(seconds);
} else if (only === 'compression') {
  await compressionBench(seconds);
} else if (only !== 'action-queue') {
  await rulesBench();
  await httpOverhead(seconds);
  await compressionBench(seconds);
  await signInBench();
  await rxListRenderBench();
  await fhirBench(seconds);
  await webhooksBench(seconds);
  await liveUpdatesBench();
}
if (only !== 'fhir' && only !== 'compression' && process.env.BENCH_SKIP_LARGE !== '1') await actionNeededBench(seconds);
