/**
 * Crash safety (issue 18): the real server runs as a child process on the engine of this run (the embedded
 * database in a data folder, or PostgreSQL when DATABASE_URL is set) while a client streams writes — patient
 * comments, new prescriptions and refill postponements, each with its own request id — and the server is killed
 * with SIGKILL at seeded moments (after a seeded number of acknowledged writes) and started again; appeal attachments are uploaded to their slots meanwhile. The client does what ours does: it repeats a write with the
 * same request id until it is acknowledged. Afterwards every acknowledged write is in the database exactly
 * once, with its event and pharmacy message where it has them, and the data folder still opens.
 * Prints acknowledged, lost (goal 0) and duplicated (goal 0).
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APPEAL_SLOTS, APPEAL_TOKEN_HEADER, generateRequestId } from '@hcp/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, Server, signInOver } from './support/child-server.ts';
import { type Engine, prepareEngine } from './support/engine.ts';
import { multipartBody } from './support/multipart.ts';

const KILLS = Number(process.env.CRASH_KILLS ?? 4);
const WRITERS = 4;

/** A small seeded random source, so a failing run can be repeated. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}
const rand = random(Number(process.env.CRASH_SEED ?? 20261124));

/** A postponement two months ahead (the rule allows up to a year). */
const POSTPONE_TO = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Write {
  kind: 'comment' | 'prescription' | 'postpone';
  requestId: string;
  url: string;
  body: Record<string, unknown>;
  /** What identifies it in the database: the comment text, the prescription's sig, the postponed prescription. */
  marker: string;
}

let engine: Engine | null = null;
let server: Server | null = null;
afterAll(async () => {
  await server?.kill();
  await engine?.close();
});

describe('crash safety', () => {
  it('keeps every acknowledged write exactly once across SIGKILLs and restarts', async () => {
    engine = await prepareEngine();
    server = new Server(await freePort(), engine.env);
    await server.start();
    const live = server;

    // Sign in as the prescriber and pick what to write about.
    const session = await signInOver(live.base, 'dr.morgan@demo.hcp');
    const userID = session.userId;
    const headers = { ...session.headers, 'content-type': 'application/json' };
    const list = (await (
      await fetch(`${live.base}/api/mdo/v2/users/${userID}/action-needed?actionType=ACTION_NEEDED_ALL`, { headers })
    ).json()) as { doctors: unknown };
    const entries = (list.doctors as { patients: { id: string; prescriptions: { id: string; needsRefillAuth: boolean }[] }[] }[])
      .flatMap((d) => d.patients)
      .flatMap((p) => p.prescriptions.map((rx) => ({ patientId: p.id, rx })));
    const patientId = entries[0]?.patientId as string;
    const refills = [...new Set(entries.filter((e) => e.rx.needsRefillAuth).map((e) => e.rx.id))];
    const catalogue = await (await fetch(`${live.base}/api/mdo/v1/drug-catalogue?searchText=ator`, { headers })).json();
    const productId = (catalogue as { id: string; isControlled: boolean }[]).find((p) => !p.isControlled)?.id as string;
    expect(patientId && productId && refills.length > 0).toBeTruthy();

    let sequence = 0;
    const nextWrite = (): Write => {
      sequence += 1;
      const marker = `crash-${process.pid}-${sequence}`;
      const roll = rand();
      const requestId = generateRequestId();
      if (roll < 0.1 && refills.length > 0) {
        const id = refills.pop() as string;
        return {
          kind: 'postpone',
          requestId,
          marker: id,
          url: `/api/mdo/v1/prescriptions/${id}/refills-postponed`,
          body: { refillPostponedToDate: POSTPONE_TO, senderName: 'Crash Test' },
        };
      }
      if (roll < 0.45) {
        return {
          kind: 'prescription',
          requestId,
          marker,
          url: `/api/mdo/v1/users/${userID}/prescriptions`,
          body: {
            patient: { patientId },
            order: {
              productId,
              quantity: 30,
              daysSupply: 30,
              refills: 1,
              sig: `Take 1 daily ${marker}`,
              substitutionAllowed: true,
            },
          },
        };
      }
      return {
        kind: 'comment',
        requestId,
        marker,
        url: `/api/mdo/v1/users/${userID}/rx-comment`,
        body: { patientId, comment: marker },
      };
    };

    const acknowledged: Write[] = [];
    /** Who waits for the acknowledged writes to reach a count: kills are timed by writes, not by the clock. */
    const waiting: { count: number; reached: () => void }[] = [];
    const acknowledge = (write: Write) => {
      acknowledged.push(write);
      for (const waiter of waiting.filter((w) => acknowledged.length >= w.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.reached();
      }
    };
    /** Resolves once `more` further writes have been acknowledged. */
    const afterWrites = (more: number) => {
      const count = acknowledged.length + more;
      return new Promise<void>((reached) => waiting.push({ count, reached }));
    };
    const refused: string[] = [];
    /** Acknowledged by replaying what the write's transaction recorded: it committed, the reply was lost to a kill. */
    let replayed = 0;
    let writing = true;
    /** Our client's rule: the same write, with the same request id, until the server acknowledges it. */
    async function send(write: Write) {
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline) {
        try {
          const res = await fetch(`${live.base}${write.url}`, {
            method: 'POST',
            headers: { ...headers, 'x-request-id': write.requestId },
            body: JSON.stringify(write.body),
            signal: AbortSignal.timeout(10_000),
          });
          const text = await res.text();
          if (res.status === 200 || res.status === 201) {
            if (res.headers.get('idempotent-replayed') === 'true') replayed += 1;
            return void acknowledge(write);
          }
          const inProgress = res.status === 409 && text.includes('being processed');
          if (res.status < 500 && !inProgress) return void refused.push(`${write.kind} ${res.status} ${text.slice(0, 160)}`);
        } catch {
          // The server is down: it is being restarted.
        }
        await sleep(150);
      }
      refused.push(`${write.kind}: never acknowledged`);
    }
    const writers = Array.from({ length: WRITERS }, async () => {
      while (writing) await send(nextWrite());
    });

    // Attachments: one appeal (its link's NPI and key, as the pharmacy sends them), its slots filled in turn; a
    // slot's upload replaces the file before it, so the last acknowledged one of each slot must be there, alone.
    const links = JSON.parse(readFileSync(path.join(engine.env.DATA_DIR as string, 'demo-appeals.json'), 'utf8')) as {
      appealId: string;
      npi: string;
      key: string;
    }[];
    const link = links[0] as (typeof links)[number];
    const opened = await fetch(`${live.base}/api/mdo/v1/appeal-auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ npi: link.npi, key: link.key }),
    });
    const appealToken = ((await opened.json()) as { token: string }).token;
    expect(appealToken).toBeTruthy();
    const lastUpload = new Map<string, string>();
    let uploads = 0;
    const uploader = (async () => {
      while (writing) {
        const slot = APPEAL_SLOTS[uploads % APPEAL_SLOTS.length] as string;
        uploads += 1;
        const marker = `crash-upload-${process.pid}-${uploads}`;
        const form = multipartBody([
          {
            field: slot,
            filename: `${marker}.pdf`,
            content: Buffer.from(`%PDF-1.7\n${marker}\n${' '.repeat(4096)}`),
            type: 'application/pdf',
          },
        ]);
        const deadline = Date.now() + 180_000;
        while (Date.now() < deadline) {
          try {
            const res = await fetch(`${live.base}/api/mdo/v1/appeal/${link.appealId}/file-upload`, {
              method: 'POST',
              headers: { 'content-type': form.contentType, [APPEAL_TOKEN_HEADER]: appealToken },
              body: form.payload,
              signal: AbortSignal.timeout(10_000),
            });
            await res.arrayBuffer();
            if (res.ok) {
              lastUpload.set(slot, marker);
              break;
            }
            if (res.status < 500) {
              refused.push(`upload ${res.status}`);
              break;
            }
          } catch {
            // The server is down: it is being restarted.
          }
          await sleep(150);
        }
      }
    })();

    // Each kill comes after a seeded number of further acknowledged writes (25 to 75), while the writers and the
    // uploader are mid-request: decided by the writes, so a slow or busy machine gets the same test, only slower.
    for (let kill = 0; kill < KILLS; kill += 1) {
      await afterWrites(25 + Math.floor(rand() * 50));
      await live.kill();
      await live.start();
    }
    await afterWrites(25);
    writing = false;
    await Promise.all([...writers, uploader]);
    await live.stop();

    // The data (and, for the embedded engine, its folder after every kill) opens and holds each write once.
    const q = engine.query;
    let lost = 0;
    let duplicated = 0;
    const problems: string[] = [...refused];
    for (const write of acknowledged) {
      let found = 0;
      if (write.kind === 'comment') {
        found = (await q<{ n: number }>('select count(*)::int as n from comments where body = $1', [write.marker]))[0]?.n ?? 0;
      } else if (write.kind === 'prescription') {
        const rows = await q<{ id: string }>('select id from prescriptions where sig = $1', [`Take 1 daily ${write.marker}`]);
        found = rows.length;
        for (const { id } of rows) {
          const events = (
            await q<{ n: number }>('select count(*)::int as n from prescription_events where prescription_id = $1', [id])
          )[0];
          const messages = (await q<{ n: number }>('select count(*)::int as n from outbox where prescription_id = $1', [id]))[0];
          if (events?.n !== 1 || messages?.n !== 1)
            problems.push(`prescription ${id}: ${events?.n} events, ${messages?.n} outbox rows`);
        }
      } else {
        found =
          (
            await q<{ n: number }>(
              `select count(*)::int as n from prescription_events where prescription_id = $1 and request_id = $2`,
              [write.marker, write.requestId],
            )
          )[0]?.n ?? 0;
        const [state] = await q<{ until: string | null }>(
          `select to_char(refill_postponed_until, 'YYYY-MM-DD') as until from prescriptions where id = $1`,
          [write.marker],
        );
        if (state?.until !== POSTPONE_TO) problems.push(`postponed prescription ${write.marker} reads ${state?.until}`);
      }
      if (found === 0) lost += 1;
      if (found > 1) duplicated += 1;
    }
    for (const [slot, marker] of lastUpload) {
      const rows = await q<{ storedName: string }>(
        'select stored_name as "storedName" from appeal_files where appeal_id = $1 and slot = $2',
        [link.appealId, slot],
      );
      // The content from the database file store: complete, and the acknowledged upload's.
      const chunks = await q<{ data: Uint8Array }>(
        'select c.data from stored_file_chunks c join stored_files f on f.key = c.key where f.key = $1 and f.complete order by c.seq',
        [rows[0]?.storedName ?? 'missing'],
      );
      const content = Buffer.concat(chunks.map((c) => Buffer.from(c.data))).toString('utf8');
      if (rows.length !== 1) problems.push(`appeal slot ${slot}: ${rows.length} files recorded`);
      else if (!content.includes(marker)) {
        problems.push(`appeal slot ${slot}: the recorded file is not the last acknowledged upload`);
      }
    }
    const byKind = ['comment', 'prescription', 'postpone'].map((k) => `${acknowledged.filter((w) => w.kind === k).length} ${k}s`);
    process.stdout.write(
      `\ncrash safety on ${engine.name}: ${acknowledged.length} acknowledged writes (${byKind.join(', ')}) and ${uploads} attachment uploads across ${KILLS} SIGKILLs (${replayed} answered from the record after a kill); lost ${lost}, duplicated ${duplicated}\n`,
    );
    expect(problems).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(50);
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  }, 600_000);
});
