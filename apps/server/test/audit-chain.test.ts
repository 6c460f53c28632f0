/**
 * The audit trail's seals (issue 49, decision 0061), on the real database: what is sealed verifies; changing,
 * removing or inserting one sealed row in the database (past the append-only trigger, as its owner could) is found
 * and named; a seal rewritten to match a changed row does not check without the server's key; retention purges
 * whole seals and the chain still verifies from its anchor.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAudit } from '../src/lib/audit.ts';
import { buildTestApp, type TestApp } from './support/app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const appOf = () => {
  if (!t) throw new Error('no app');
  return t;
};
const rows = async (query: ReturnType<typeof sql>) =>
  ((await appOf().database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

/** The database's own message of a refused statement (drizzle wraps it as the error's cause). */
const refusal = (statement: ReturnType<typeof sql>) =>
  appOf()
    .database.db.execute(statement)
    .then(
      () => 'done',
      (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
    );

/** As the database's owner: past the trigger that keeps the application from changing a row. */
const asOwner = async (statement: ReturnType<typeof sql>) => {
  const { db } = appOf().database;
  await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
  await db.execute(statement);
  await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
};

async function sealedApp(extraRows = 5) {
  t = await buildTestApp();
  for (let i = 0; i < extraRows; i += 1) {
    // A write that rolled back leaves a gap in the ids (as in production): where a forged row can be put later.
    if (i === 2) await t.database.db.execute(sql`select nextval('audit_log_id_seq')`);
    await writeAudit(t.database.db, {
      actorUserId: null,
      action: 'test.row',
      entityType: 'test',
      entityId: String(i),
      details: { i, text: 'ünïcode ✓' },
    });
  }
  const round = await t.app.auditChain.seal({ marginSeconds: 0, maxRows: 4 });
  expect(round.rows).toBeGreaterThanOrEqual(extraRows);
  const ids = (await rows(sql`select id from audit_log where action = 'test.row' order by id`)).map((r) => Number(r.id));
  return { app: t, ids, round };
}

describe('audit trail seals', () => {
  it('seals every committed row in runs and verifies the chain, naming what is not sealed yet', async () => {
    const { app, round } = await sealedApp();
    // maxRows 4: the backlog was sealed in several seals, each on the one before.
    expect(round.seals).toBeGreaterThan(1);
    expect(round.head?.hash).toMatch(/^[0-9a-f]{64}$/);
    await writeAudit(app.database.db, { actorUserId: null, action: 'test.late', entityType: 'test' });
    const report = await app.app.auditChain.verify();
    expect(report).toMatchObject({ ok: true, problem: null, seals: round.seals, unsealedRows: 1 });
    expect(report.sealedRows).toBe(round.rows);
    // A row younger than the margin waits for the next round.
    expect((await app.app.auditChain.seal({ marginSeconds: 3600 })).rows).toBe(0);
  });

  it('keeps the application from changing or removing a row', async () => {
    const { app, ids } = await sealedApp(1);
    expect(await refusal(sql`update audit_log set action = 'x' where id = ${ids[0]}`)).toMatch(/append-only/);
    expect(await refusal(sql`delete from audit_log where id = ${ids[0]}`)).toMatch(/append-only/);
    expect((await app.app.auditChain.verify()).ok).toBe(true);
  });

  it('finds one changed row and names it', async () => {
    const { app, ids } = await sealedApp();
    await asOwner(sql`update audit_log set details = '{"i": 99}'::jsonb where id = ${ids[2]}`);
    expect((await app.app.auditChain.verify()).problem).toMatchObject({ kind: 'changed', rowId: ids[2] });
  });

  it('finds one removed row and names it', async () => {
    const { app, ids } = await sealedApp();
    await asOwner(sql`delete from audit_log where id = ${ids[3]}`);
    expect((await app.app.auditChain.verify()).problem).toMatchObject({ kind: 'removed', rowId: ids[3] });
  });

  it('finds a row put in place of a removed one', async () => {
    const { app, ids } = await sealedApp();
    await asOwner(sql`delete from audit_log where id = ${ids[1]}`);
    // The owner removes a row and puts another in its place with the same id: it reads as changed.
    await app.database.db.execute(sql`insert into audit_log (id, action, entity_type) values (${ids[1]}, 'forged', 'test')`);
    expect((await app.app.auditChain.verify()).problem).toMatchObject({ kind: 'changed', rowId: ids[1] });
  });

  it('finds a row inserted after sealing into a gap among sealed ones', async () => {
    const { app, ids } = await sealedApp();
    // The gap a rolled-back write left between the second and third rows.
    const gap = (ids[1] as number) + 1;
    expect(ids[2]).toBe(gap + 1);
    await app.database.db.execute(sql`insert into audit_log (id, action, entity_type) values (${gap}, 'forged', 'test')`);
    expect((await app.app.auditChain.verify()).problem).toMatchObject({ kind: 'inserted', rowId: gap });
  });

  it('refuses a seal rewritten to match a changed row: the database does not hold the key', async () => {
    const { app, ids } = await sealedApp();
    await asOwner(sql`update audit_log set action = 'hidden' where id = ${ids[0]}`);
    const digest = String(
      (
        await rows(sql`select encode(sha256(convert_to(jsonb_build_array(id, actor_user_id, action, entity_type, entity_id,
          request_id, ip, details, (extract(epoch from created_at) * 1000000)::bigint)::text, 'UTF8')), 'hex') as d
          from audit_log where id = ${ids[0]}`)
      )[0]?.d,
    );
    const seal = (await rows(sql`select id, row_ids, row_digests from audit_seals where ${ids[0]} = any(row_ids)`))[0];
    const position = ((seal?.row_ids ?? []) as unknown[]).map(Number).indexOf(ids[0] as number);
    const digests = String(seal?.row_digests);
    const rewritten = digests.slice(0, position * 64) + digest + digests.slice((position + 1) * 64);
    await app.database.db.execute(sql`update audit_seals set row_digests = ${rewritten} where id = ${seal?.id}`);
    expect((await app.app.auditChain.verify()).problem).toMatchObject({ kind: 'seal', sealId: Number(seal?.id) });
  });

  it('finds a seal removed from the middle of the chain', async () => {
    const { app } = await sealedApp(9);
    const middle = (await rows(sql`select id from audit_seals order by id offset 1 limit 1`))[0]?.id;
    await app.database.db.execute(sql`delete from audit_seals where id = ${middle}`);
    expect((await app.app.auditChain.verify()).problem?.kind).toBe('seal');
  });

  it('purges whole seals past retention in batches and the chain still verifies from the anchor', async () => {
    const { app } = await sealedApp(9);
    const seals = (await rows(sql`select id, last_id from audit_seals order by id`)).map((r) => ({
      id: Number(r.id),
      lastId: Number(r.last_id),
    }));
    const old = seals.slice(0, 2);
    await app.database.db.execute(
      sql`update audit_seals set sealed_at = now() - interval '7 years' where id <= ${old.at(-1)?.id}`,
    );
    const before = Number((await rows(sql`select count(*) as n from audit_log`))[0]?.n);
    const purged = await app.app.auditChain.purge(new Date(), 2192);
    expect(purged.seals).toBe(2);
    const lastPurged = old.at(-1)?.lastId as number;
    expect(Number((await rows(sql`select count(*) as n from audit_log`))[0]?.n)).toBe(before - purged.rows);
    expect(await rows(sql`select id from audit_log where id <= ${lastPurged}`)).toEqual([]);
    expect(await rows(sql`select audit_id from audit_subjects where audit_id <= ${lastPurged}`)).toEqual([]);
    const anchor = (await rows(sql`select last_row_id, purged_rows from audit_chain_anchor`))[0];
    expect(Number(anchor?.last_row_id)).toBe(lastPurged);
    expect(Number(anchor?.purged_rows)).toBe(purged.rows);

    const report = await app.app.auditChain.verify();
    expect(report).toMatchObject({ ok: true, purgedRows: purged.rows, seals: seals.length - 2 });
    // Nothing more is due: a second round purges nothing.
    expect(await app.app.auditChain.purge(new Date(), 2192)).toEqual({ rows: 0, seals: 0 });
    // New rows seal onto the chain after the anchor.
    await writeAudit(app.database.db, { actorUserId: null, action: 'test.after', entityType: 'test' });
    expect((await app.app.auditChain.seal({ marginSeconds: 0 })).rows).toBe(1);
    expect((await app.app.auditChain.verify()).ok).toBe(true);
    // A purged row put back is found.
    await app.database.db.execute(sql`insert into audit_log (id, action, entity_type) values (${lastPurged}, 'back', 'test')`);
    expect((await app.app.auditChain.verify()).problem).toMatchObject({ kind: 'inserted', rowId: lastPurged });
  });

  it('does not purge a batch whose seals do not check: the evidence stays', async () => {
    const { app, ids } = await sealedApp();
    await asOwner(sql`update audit_log set action = 'hidden' where id = ${ids[0]}`);
    await app.database.db.execute(sql`update audit_seals set sealed_at = now() - interval '7 years'`);
    await expect(app.app.auditChain.purge(new Date(), 2192)).rejects.toThrow(/purge stopped/);
    expect((await rows(sql`select id from audit_log where id = ${ids[0]}`)).length).toBe(1);
  });
});
