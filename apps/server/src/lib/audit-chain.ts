/**
 * Tamper evidence for the audit trail (issue 49, decision 0061). Rows are sealed in id order, in runs: a seal keeps
 * the run's ids and a SHA-256 of each row, and an HMAC over those and the seal before it. The HMAC's key is derived
 * from the server's signing key, which the database does not hold, so someone who can change rows and seals in the
 * database cannot make a seal that checks. Writers never wait on sealing: a round seals, after the fact, what was
 * committed since the last seal.
 *
 * `verify` walks the chain and names the first row that was changed, removed, or inserted after sealing; retention
 * purges whole seals, oldest first, and keeps the last purged seal's hash as the chain's new start (the anchor).
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Database, type Executor, selectRows } from '../db/client.ts';

/** The previous hash of the very first seal. */
export const GENESIS_HASH = '0'.repeat(64);
/** Sealing and purging take this transaction lock, so two rounds never both extend the chain. */
const CHAIN_LOCK_ID = 7_304_249;
const DIGEST_HEX = 64;

/**
 * One row as the digest sees it: every column, in a fixed order, as jsonb text (stable across versions and
 * platforms; the instant in microseconds, free of the session's time zone).
 */
const ROW_DIGEST_SQL = sql.raw(`encode(sha256(convert_to(jsonb_build_array(
    id, actor_user_id, action, entity_type, entity_id, request_id, ip, details,
    (extract(epoch from created_at) * 1000000)::bigint)::text, 'UTF8')), 'hex')`);

export type ChainProblemKind = 'changed' | 'removed' | 'inserted' | 'seal';

export interface ChainProblem {
  kind: ChainProblemKind;
  /** The audit row concerned (for a broken seal: the first row it covers). */
  rowId: number;
  sealId: number;
}

export interface ChainReport {
  ok: boolean;
  seals: number;
  sealedRows: number;
  lastSealedRowId: number;
  lastSealedAt: string | null;
  /** Rows written since the last seal (the window the seals do not yet cover). */
  unsealedRows: number;
  /** Rows purged by retention; the chain starts after them. */
  purgedRows: number;
  problem: ChainProblem | null;
}

/** A sealing round: how many seals and rows, and the chain's head after it (logged: a copy outside the database). */
export interface SealRound {
  seals: number;
  rows: number;
  head: { lastRowId: number; hash: string } | null;
}

interface SealRow {
  id: number;
  firstId: number;
  lastId: number;
  rowIds: number[];
  rowDigests: string;
  prevHash: string;
  hash: string;
  sealedAt: Date;
}

interface Start {
  hash: string;
  lastRowId: number;
  purgedRows: number;
  sealId: number;
}

export interface AuditChain {
  /** Seals what was committed more than `marginSeconds` ago and is not sealed yet; returns what it sealed. */
  seal(options?: { marginSeconds?: number; maxRows?: number }): Promise<SealRound>;
  verify(): Promise<ChainReport>;
  /** Removes whole seals sealed before `now - retentionDays`, with their rows, in batches; the chain stays verifiable. */
  purge(now: Date, retentionDays: number): Promise<{ rows: number; seals: number }>;
}

export function sealKeyOf(signingKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', signingKey, 'hcp-portal', 'audit-seal-v1', 32));
}

const sealHash = (key: Buffer, prevHash: string, rowIds: readonly number[], rowDigests: string) =>
  createHmac('sha256', key)
    .update(`${prevHash}\n${rowIds.join(',')}\n${rowDigests}`)
    .digest('hex');

const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

const num = (value: unknown) => Number(value);

async function chainStart(db: Executor): Promise<Start> {
  const row = (await selectRows(db, sql`select seal_id, last_row_id, hash, purged_rows from audit_chain_anchor where id = 1`))[0];
  return row
    ? { hash: String(row.hash), lastRowId: num(row.last_row_id), purgedRows: num(row.purged_rows), sealId: num(row.seal_id) }
    : { hash: GENESIS_HASH, lastRowId: 0, purgedRows: 0, sealId: 0 };
}

const sealOf = (row: Record<string, unknown>): SealRow => ({
  id: num(row.id),
  firstId: num(row.first_id),
  lastId: num(row.last_id),
  rowIds: (row.row_ids as unknown[]).map(num),
  rowDigests: String(row.row_digests),
  prevHash: String(row.prev_hash),
  hash: String(row.hash),
  sealedAt: new Date(row.sealed_at as string),
});

/**
 * The first difference between what a seal recorded and the rows now in its range (after the previous seal's last
 * row, up to its own last): a recorded id that is gone was removed, an id it did not record was inserted after
 * sealing, a digest that differs was changed.
 */
function firstDifference(seal: SealRow, actual: readonly { id: number; digest: string }[]): ChainProblem | null {
  let i = 0;
  let j = 0;
  while (i < seal.rowIds.length || j < actual.length) {
    const recorded = seal.rowIds[i];
    const present = actual[j];
    if (recorded === undefined || (present && present.id < recorded)) {
      return { kind: 'inserted', rowId: present?.id ?? 0, sealId: seal.id };
    }
    if (!present || present.id > recorded) return { kind: 'removed', rowId: recorded, sealId: seal.id };
    if (seal.rowDigests.slice(i * DIGEST_HEX, (i + 1) * DIGEST_HEX) !== present.digest) {
      return { kind: 'changed', rowId: recorded, sealId: seal.id };
    }
    i += 1;
    j += 1;
  }
  return null;
}

/** Checks seals in order from `start`; the first problem, and how far it got. */
async function checkSeals(db: Executor, key: Buffer, start: Start, seals: readonly SealRow[]) {
  let prevHash = start.hash;
  let prevLastId = start.lastRowId;
  let rows = 0;
  const last = seals.at(-1);
  const present = last
    ? ((
        await selectRows(
          db,
          sql`select id, ${ROW_DIGEST_SQL} as digest from audit_log
          where id > ${prevLastId} and id <= ${last.lastId} order by id`,
        )
      ).map((r) => ({ id: num(r.id), digest: String(r.digest) })) as { id: number; digest: string }[])
    : [];
  let cursor = 0;
  for (const seal of seals) {
    const broken: ChainProblem = { kind: 'seal', rowId: seal.firstId, sealId: seal.id };
    if (!sameHex(seal.prevHash, prevHash) || seal.firstId <= prevLastId) return { problem: broken, rows, prevHash, prevLastId };
    if (!sameHex(sealHash(key, seal.prevHash, seal.rowIds, seal.rowDigests), seal.hash)) {
      return { problem: broken, rows, prevHash, prevLastId };
    }
    const from = cursor;
    while (cursor < present.length && (present[cursor]?.id ?? 0) <= seal.lastId) cursor += 1;
    const problem = firstDifference(seal, present.slice(from, cursor));
    if (problem) return { problem, rows, prevHash, prevLastId };
    rows += seal.rowIds.length;
    prevHash = seal.hash;
    prevLastId = seal.lastId;
  }
  return { problem: null, rows, prevHash, prevLastId };
}

const SEAL_PAGE = 50;

export function createAuditChain(db: Database, signingKey: string): AuditChain {
  const key = sealKeyOf(signingKey);

  const sealOnce = async (marginSeconds: number, maxRows: number) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK_ID})`);
      const start = await chainStart(tx);
      const lastSeal = (await selectRows(tx, sql`select id, last_id, hash from audit_seals order by id desc limit 1`))[0];
      const after = lastSeal ? num(lastSeal.last_id) : start.lastRowId;
      const prevHash = lastSeal ? String(lastSeal.hash) : start.hash;
      // A row is sealed once it is older than the margin and than every transaction still open, so a row that
      // commits late is not taken for one inserted after sealing (decision 0061). "At or before" the cutoff: the
      // embedded database's clock counts milliseconds, so a row written just before (margin 0, the tests) may share
      // its instant.
      const rows = (await selectRows(
        tx,
        sql`
          with cutoff as (
            select least(now() - make_interval(secs => ${marginSeconds}),
                         coalesce((select min(xact_start) from pg_stat_activity
                                    where xact_start is not null and datname = current_database()
                                      and pid <> pg_backend_pid()), now())) as at
          ),
          candidates as (
            select id, created_at, ${ROW_DIGEST_SQL} as digest from audit_log where id > ${after} order by id limit ${maxRows}
          ),
          top as (select max(id) as id from candidates where created_at <= (select at from cutoff))
          select id, digest from candidates where id <= (select id from top) order by id`,
      )) as { id: unknown; digest: unknown }[];
      if (rows.length === 0) return null;
      const rowIds = rows.map((r) => num(r.id));
      const rowDigests = rows.map((r) => String(r.digest)).join('');
      const hash = sealHash(key, prevHash, rowIds, rowDigests);
      await tx.execute(sql`insert into audit_seals (first_id, last_id, row_ids, row_digests, prev_hash, hash)
        values (${rowIds[0]}, ${rowIds.at(-1)}, ${sql.raw(`'{${rowIds.join(',')}}'::bigint[]`)}, ${rowDigests}, ${prevHash}, ${hash})`);
      return { rows: rowIds.length, head: { lastRowId: rowIds.at(-1) as number, hash } };
    });

  const sealPage = async (afterSealId: number) =>
    (await selectRows(db, sql`select * from audit_seals where id > ${afterSealId} order by id limit ${SEAL_PAGE}`)).map((r) =>
      sealOf(r as Record<string, unknown>),
    );

  return {
    async seal({ marginSeconds = 120, maxRows = 5000 } = {}) {
      let seals = 0;
      let rows = 0;
      let head: SealRound['head'] = null;
      // At most a few batches a round: a backlog (the first round on an old database) is sealed over several rounds.
      for (let batch = 0; batch < 20; batch += 1) {
        const sealed = await sealOnce(marginSeconds, maxRows);
        if (!sealed) break;
        seals += 1;
        rows += sealed.rows;
        head = sealed.head;
        if (sealed.rows < maxRows) break;
      }
      return { seals, rows, head };
    },

    async verify() {
      const start = await chainStart(db);
      let position: Start = start;
      let seals = 0;
      let sealedRows = 0;
      let lastSealedAt: Date | null = null;
      let problem: ChainProblem | null = null;
      // A row at or below the anchor's last row came back after its seal was purged.
      if (start.lastRowId > 0) {
        const back = (await selectRows(db, sql`select min(id) as id from audit_log where id <= ${start.lastRowId}`))[0];
        if (back?.id != null) problem = { kind: 'inserted', rowId: num(back.id), sealId: start.sealId };
      }
      while (!problem) {
        const page = await sealPage(position.sealId);
        if (page.length === 0) break;
        const checked = await checkSeals(db, key, position, page);
        sealedRows += checked.rows;
        if (checked.problem) {
          problem = checked.problem;
          break;
        }
        seals += page.length;
        const last = page.at(-1) as SealRow;
        lastSealedAt = last.sealedAt;
        position = { ...position, hash: checked.prevHash, lastRowId: checked.prevLastId, sealId: last.id };
      }
      const unsealed = (await selectRows(db, sql`select count(*)::int as n from audit_log where id > ${position.lastRowId}`))[0];
      return {
        ok: problem === null,
        seals,
        sealedRows,
        lastSealedRowId: position.lastRowId,
        lastSealedAt: lastSealedAt?.toISOString() ?? null,
        unsealedRows: problem ? 0 : num(unsealed?.n),
        purgedRows: start.purgedRows,
        problem,
      };
    },

    async purge(now, retentionDays) {
      const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
      let rows = 0;
      let seals = 0;
      for (let batch = 0; batch < 20; batch += 1) {
        const done = await db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK_ID})`);
          const start = await chainStart(tx);
          const due = (
            await selectRows(
              tx,
              sql`select * from audit_seals where sealed_at < ${cutoff.toISOString()}
              order by id limit 50`,
            )
          ).map(sealOf);
          const last = due.at(-1);
          if (!last) return null;
          // Evidence is never purged unchecked: a batch whose seals or rows do not check stays for the reviewer.
          const checked = await checkSeals(tx, key, start, due);
          if (checked.problem) throw new Error(`audit chain problem in seal ${checked.problem.sealId}; purge stopped`);
          await tx.execute(sql`set local hcp.audit_purge = 'on'`);
          const removed = num(
            (
              await selectRows(
                tx,
                sql`with gone as (delete from audit_log where id <= ${last.lastId} returning 1)
                select count(*)::int as n from gone`,
              )
            )[0]?.n,
          );
          await tx.execute(sql`delete from audit_subjects where audit_id <= ${last.lastId}`);
          await tx.execute(sql`delete from audit_seals where id <= ${last.id}`);
          await tx.execute(sql`insert into audit_chain_anchor (id, seal_id, last_row_id, hash, purged_rows, updated_at)
            values (1, ${last.id}, ${last.lastId}, ${last.hash}, ${removed}, now())
            on conflict (id) do update set seal_id = excluded.seal_id, last_row_id = excluded.last_row_id,
              hash = excluded.hash, purged_rows = audit_chain_anchor.purged_rows + excluded.purged_rows,
              updated_at = now()`);
          return { rows: removed, seals: due.length };
        });
        if (!done) break;
        rows += done.rows;
        seals += done.seals;
      }
      return { rows, seals };
    },
  };
}
