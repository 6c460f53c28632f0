/**
 * Sign-in latency: a full POST /auth-service/login over HTTP (validation, lookup, lockout bookkeeping,
 * argon2id verify, refresh-token insert, JWT, audit row) against the argon2id verify alone — the part
 * that is slow on purpose. The ratio shows what our own code adds on top of the password hash.
 */
import { PGlite } from '@electric-sql/pglite';
import { DASHBOARD } from '@hcp/contract';
import { wrapPglite } from '../../apps/server/src/db/client.ts';
import { hashPassword, verifyPassword } from '../../apps/server/src/lib/passwords.ts';
import { DEMO_PASSWORD, seedDemoData } from '../../apps/server/src/seed/index.ts';
import { median, startBenchApp } from './bench-app.ts';
import { interleavedRatio } from './measure.ts';

export async function signInBench(runs = 30): Promise<void> {
  const client = new PGlite();
  const database = wrapPglite(client);
  await database.migrate();
  await seedDemoData(database.db, { size: 'small' });
  const { app, base } = await startBenchApp(database);
  const url = `${base}/auth-service/login`;
  const body = JSON.stringify({ email: 'dr.morgan@demo.hcp', password: DEMO_PASSWORD, dashboard: DASHBOARD });

  const hash = await hashPassword(DEMO_PASSWORD);
  const perRound = Math.max(1, Math.floor(runs / 5));
  const timed = async (call: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < perRound; i += 1) {
      const start = performance.now();
      await call();
      times.push(performance.now() - start);
    }
    return median(times);
  };
  await interleavedRatio(
    'sign-in',
    'POST /auth-service/login (median)',
    'argon2id verify alone',
    5,
    () =>
      timed(async () => {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if (res.status !== 200) throw new Error(`login answered ${res.status}`);
        await res.json();
      }),
    () => timed(() => verifyPassword(hash, DEMO_PASSWORD)),
    (login, verify) => `${login.toFixed(1)} vs ${verify.toFixed(1)} ms, ${perRound} of each per round`,
  );
  await app.close();
  await client.close();
}
