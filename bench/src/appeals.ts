/**
 * Appeals on the large seed: signing in to an appeal (key hash lookup, audit row, token) and reading it back,
 * against the same server's /readyz; and attaching a 1 MB PDF (multipart parse, type by content, streamed into the
 * database file store in chunks, one transaction) against a bare node:http server that receives the same body and
 * inserts it into the same database as one row. Interleaved rounds (measure.ts).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { APPEAL_TOKEN_HEADER } from '@hcp/contract';
import { isNull, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';
import { appeals } from '../../apps/server/src/db/schema.ts';
import { demoAppealKey } from '../../apps/server/src/seed/generate.ts';
import { multipartBody } from '../../apps/server/test/support/multipart.ts';
import { interleavedRatio, quantile, timeRequests } from './measure.ts';

/** Requests per side in each interleaved round. */
const RUNS = 20;

export async function appealsBench(label: string, base: string, database: DatabaseHandle): Promise<void> {
  const open = await database.db.select().from(appeals).where(isNull(appeals.submittedAt)).limit(1);
  const appeal = open[0];
  if (!appeal) throw new Error('appeals bench: the seed has no open appeal');
  const credentials = JSON.stringify({ npi: appeal.npi, key: demoAppealKey(appeal.id) });
  const readyz = () => timeRequests(RUNS, () => fetch(`${base}/readyz`));
  const signIn = () =>
    fetch(`${base}/api/mdo/v1/appeal-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: credentials,
    });
  const p95Ratio = async (name: string, subject: string, call: () => Promise<Response>) => {
    const all: number[] = [];
    await interleavedRatio(
      `${name} (${label})`,
      `${subject} p95`,
      'GET /readyz p95 (one trivial query)',
      5,
      async () => {
        const { p95, times } = await timeRequests(RUNS, call);
        all.push(...times);
        return p95;
      },
      async () => (await readyz()).p95,
      (ours, ready) => `p50 ${quantile(all, 0.5).toFixed(1)} ms, p95 ${ours.toFixed(1)} ms vs /readyz p95 ${ready.toFixed(1)} ms`,
    );
  };
  await p95Ratio('appeal-auth', 'POST appeal-auth', signIn);
  const { token } = (await (await signIn()).json()) as { token: string };
  const headers = { [APPEAL_TOKEN_HEADER]: token };
  await p95Ratio('appeal-read', 'GET appeal/{id}', () => fetch(`${base}/api/mdo/v1/appeal/${appeal.id}`, { headers }));

  // The unavoidable work of an upload: receive the body and put it in the database.
  await database.db.execute(sql`create table if not exists bench_upload_baseline (id uuid primary key, data bytea not null)`);
  const bare = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      await database.db.execute(
        sql`insert into bench_upload_baseline (id, data) values (${randomUUID()}, ${Buffer.concat(chunks)})`,
      );
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareBase = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1024 * 1024 - 9, 0x20)]);
  const post = (url: string, extra: Record<string, string>) => () => {
    const form = multipartBody([{ field: 'denialLetterFile', filename: 'denial.pdf', content: pdf, type: 'application/pdf' }]);
    return fetch(url, { method: 'POST', headers: { 'content-type': form.contentType, ...extra }, body: form.payload });
  };
  const uploads = { ours: [] as number[], theirs: [] as number[] };
  await interleavedRatio(
    `appeal-upload (${label})`,
    'POST file-upload 1 MB p95',
    'bare node:http receiving 1 MB and inserting it into the same database, p95',
    5,
    async () => {
      const { p95, times } = await timeRequests(6, post(`${base}/api/mdo/v1/appeal/${appeal.id}/file-upload`, headers));
      uploads.ours.push(...times);
      return p95;
    },
    async () => {
      const { p95, times } = await timeRequests(6, post(`${bareBase}/upload`, {}));
      uploads.theirs.push(...times);
      return p95;
    },
    (ours, theirs) =>
      `p50 ${quantile(uploads.ours, 0.5).toFixed(1)} vs ${quantile(uploads.theirs, 0.5).toFixed(1)} ms, ` +
      `p95 ${ours.toFixed(1)} vs ${theirs.toFixed(1)} ms (6 uploads per round replacing one slot)`,
  );
  bare.close();
  await database.db.execute(sql`drop table bench_upload_baseline`);
}
