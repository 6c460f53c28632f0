/**
 * Appeals on the large seed: signing in to an appeal (key hash lookup, audit row, token) and reading it back,
 * against the same server's /readyz; and attaching a 1 MB PDF (multipart parse, type by content, file write,
 * one transaction) against a bare node:http server that receives the same body and writes it to disk.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { APPEAL_TOKEN_HEADER } from '@hcp/contract';
import { isNull } from 'drizzle-orm';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';
import { appeals } from '../../apps/server/src/db/schema.ts';
import { demoAppealKey } from '../../apps/server/src/seed/generate.ts';
import { report } from './measure.ts';

const RUNS = 60;

async function timed(runs: number, call: () => Promise<Response>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    const res = await call();
    if (!res.ok) throw new Error(`appeals bench: answer ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

function multipart(field: string, filename: string, content: Buffer) {
  const boundary = `----bench${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function appealsBench(label: string, base: string, database: DatabaseHandle): Promise<void> {
  const open = await database.db.select().from(appeals).where(isNull(appeals.submittedAt)).limit(1);
  const appeal = open[0];
  if (!appeal) throw new Error('appeals bench: the seed has no open appeal');
  const credentials = JSON.stringify({ npi: appeal.npi, key: demoAppealKey(appeal.id) });
  const readyz = await timed(RUNS, () => fetch(`${base}/readyz`));

  const auth = await timed(RUNS, () =>
    fetch(`${base}/api/mdo/v1/appeal-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: credentials,
    }),
  );
  report(
    `appeal-auth (${label})`,
    'POST appeal-auth p95',
    'GET /readyz p95 (one trivial query)',
    auth.p95 / readyz.p95,
    `p50 ${auth.p50.toFixed(1)} ms, p95 ${auth.p95.toFixed(1)} ms vs /readyz p95 ${readyz.p95.toFixed(1)} ms`,
  );

  const { token } = (await (
    await fetch(`${base}/api/mdo/v1/appeal-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: credentials,
    })
  ).json()) as { token: string };
  const headers = { [APPEAL_TOKEN_HEADER]: token };
  const read = await timed(RUNS, () => fetch(`${base}/api/mdo/v1/appeal/${appeal.id}`, { headers }));
  report(
    `appeal-read (${label})`,
    'GET appeal/{id} p95',
    'GET /readyz p95 (one trivial query)',
    read.p95 / readyz.p95,
    `p50 ${read.p50.toFixed(1)} ms, p95 ${read.p95.toFixed(1)} ms vs /readyz p95 ${readyz.p95.toFixed(1)} ms`,
  );

  // The unavoidable work of an upload: receive the body and write it to a file.
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'hcp-bench-upload-'));
  const bare = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      await writeFile(path.join(scratch, randomUUID()), Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareBase = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1024 * 1024 - 9, 0x20)]);
  const post = (url: string, extra: Record<string, string>) => () => {
    const form = multipart('denialLetterFile', 'denial.pdf', pdf);
    return fetch(url, { method: 'POST', headers: { 'content-type': form.contentType, ...extra }, body: form.body });
  };
  const baseline = await timed(30, post(`${bareBase}/upload`, {}));
  const ours = await timed(30, post(`${base}/api/mdo/v1/appeal/${appeal.id}/file-upload`, headers));
  bare.close();
  report(
    `appeal-upload (${label})`,
    'POST file-upload 1 MB p95',
    'bare node:http receiving 1 MB and writing it to disk, p95',
    ours.p95 / baseline.p95,
    `p50 ${ours.p50.toFixed(1)} vs ${baseline.p50.toFixed(1)} ms, p95 ${ours.p95.toFixed(1)} vs ${baseline.p95.toFixed(1)} ms (30 uploads replacing one slot)`,
  );
}
