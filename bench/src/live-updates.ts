/**
 * Live updates fan-out (issue 20), PGlite small seed: 500 open event streams of one practice's prescriber and one
 * stream of another practice's. Interleaved rounds (one stream, 500 streams, one, 500…) NOTIFY a practice and time
 * until every one of its streams has the event; printed as p95 of 500 vs p95 of one, with memory per open stream
 * (server and client in this one process, so an upper bound for the server's share).
 */
import { PGlite } from '@electric-sql/pglite';
import { wrapPglite } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/index.ts';
import { benchSignIn, startBenchApp } from './bench-app.ts';
import { interleavedRatio, quantile } from './measure.ts';

const STREAMS = 500;
const ROUNDS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Stream {
  /** When each `items` event arrived. */
  items: number[];
  close(): void;
}

async function openStream(base: string, tokens: { accessToken: string; userID: string }): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/mdo/v1/users/${tokens.userID}/live-updates`, {
    headers: { authorization: `Bearer ${tokens.accessToken}`, 'x-user-id': tokens.userID, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (res.status !== 200) throw new Error(`live bench: stream ${res.status}`);
  const stream: Stream = { items: [], close: () => controller.abort() };
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = (await reader?.read()) ?? { done: true, value: undefined };
        if (done) return;
        const text = decoder.decode(value);
        for (const _ of text.matchAll(/event: items/g)) stream.items.push(performance.now());
      }
    } catch {
      // closed
    }
  })();
  return stream;
}

export async function liveUpdatesBench(): Promise<void> {
  const pglite = new PGlite();
  const database = wrapPglite(pglite);
  await database.migrate();
  await seedDemoData(database.db, { size: 'small' });
  await pglite.query(`update users set mfa_enabled = false where email = 'dr.patel@demo.hcp'`);
  const { app, base } = await startBenchApp(database, { WEBHOOK_POLL_MS: '0', ACCESS_TOKEN_TTL_SECONDS: '3600' });
  const officeOf = async (email: string) =>
    (await pglite.query<{ id: string }>('select md_office_id as id from users where email = $1', [email])).rows[0]?.id as string;
  const [morganOffice, patelOffice] = [await officeOf('dr.morgan@demo.hcp'), await officeOf('dr.patel@demo.hcp')];
  const morgan = await benchSignIn(base, 'dr.morgan@demo.hcp');
  const patel = await benchSignIn(base, 'dr.patel@demo.hcp');

  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  const many: Stream[] = [];
  for (let i = 0; i < STREAMS; i += 1) many.push(await openStream(base, morgan));
  const one = await openStream(base, patel);
  await sleep(500);
  (globalThis as { gc?: () => void }).gc?.();
  const after = process.memoryUsage();
  const perStreamKb = (after.rss - before.rss) / STREAMS / 1024;
  const heapPerStreamKb = (after.heapUsed - before.heapUsed) / STREAMS / 1024;

  const notify = (office: string) => pglite.query(`select pg_notify('hcp_items', $1)`, [office]);
  /** Notifies the practice and answers each stream's delay until its event (ms). */
  async function round(streams: Stream[], office: string): Promise<number[]> {
    const counts = streams.map((s) => s.items.length);
    const start = performance.now();
    await notify(office);
    const deadline = start + 10_000;
    while (streams.some((s, i) => s.items.length <= (counts[i] as number)) && performance.now() < deadline) await sleep(1);
    // Past the hub's quiet window, so the next round's first change goes at once.
    const delays = streams.map((s, i) => (s.items[counts[i] as number] ?? Number.NaN) - start);
    await sleep(300);
    return delays;
  }
  const single: number[] = [];
  const fanned: number[] = [];
  // Subject and baseline in turn: 500 streams of one practice, then one stream of another.
  await interleavedRatio(
    'live-updates-fan-out (PGlite)',
    `event to ${STREAMS} open streams, p95`,
    'to one stream',
    ROUNDS,
    async () => {
      const delays = await round(many, morganOffice);
      fanned.push(...delays);
      return quantile(delays, 0.95);
    },
    async () => {
      const delays = await round([one], patelOffice);
      single.push(...delays);
      return quantile(delays, 0.95);
    },
    () => {
      const missed = fanned.filter(Number.isNaN).length + single.filter(Number.isNaN).length;
      return (
        `${STREAMS} streams p50 ${quantile(fanned, 0.5).toFixed(1)} ms, p95 ${quantile(fanned, 0.95).toFixed(1)} ms; ` +
        `one stream p95 ${quantile(single, 0.95).toFixed(1)} ms; ${missed} missed; memory per open stream ` +
        `${perStreamKb.toFixed(1)} KB RSS, ${heapPerStreamKb.toFixed(1)} KB heap (server and client in one process)`
      );
    },
  );
  for (const s of [...many, one]) s.close();
  await app.close();
  await database.close();
}
