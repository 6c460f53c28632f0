/**
 * The reach matrix (issue 42; decision 0048), generated from the routes' own declarations rather than listed by
 * hand: for every signed-in route, every declared reference field (path, query, body, nested arrays) is given, in
 * an otherwise valid call, the id of a record of that kind in another practice, another tenant, of another user,
 * and a random id, for every kind of caller. Whatever is outside the caller's reach answers 404 with nothing
 * written: each cell counts the rows written (a trigger on every table but the audit log and the idempotency
 * cache), and the whole run compares a digest of every table before and after. Declared pairs (a prescription of
 * that patient, an HCP of that practice) are given a record the caller does reach but that belongs elsewhere.
 *
 * Prints "reach matrix: N of N cells, of which M body references".
 */
import { generateRequestId, type ReferenceKind, type Tokens } from '@hcp/contract';
import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import type { ReferencePath } from '../src/lib/reach/reference-paths.ts';
import type { RoutePlan } from '../src/plugins/reach.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import {
  ADMINS,
  type Fixture,
  HOME,
  member,
  openSupportWindow,
  PROVIDER,
  ROWS,
  type Row,
  setUpRouteTable,
  supportOn,
  TARGETS,
  type Target,
  WHO,
  type Who,
  webhookFixture,
} from './support/route-table.ts';

let t: TestApp;
let tokens: Record<Who, Tokens>;
let fixture: Fixture;
let plans: Map<string, RoutePlan>;
const tally = { cells: 0, expected: 0, body: 0 };

type Foreign = Target | 'random';
/** Not written by a refused request by design: the audit log (refusals are audited) and the replay cache. */
const UNWATCHED = ['audit_log', 'idempotency_keys', 'reach_write_probe', 'job_leases', '__drizzle_migrations'];

const db = () => t.database.db;
const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;

/** Counts every row written to any watched table (row-level triggers), so a cell proves it wrote nothing. */
async function installWriteProbe() {
  await db().execute(sql`create table reach_write_probe (n bigint not null)`);
  await db().execute(sql`insert into reach_write_probe values (0)`);
  await db().execute(
    sql.raw(`create function reach_count_write() returns trigger language plpgsql as $$
    begin update reach_write_probe set n = n + 1; return null; end $$`),
  );
  const tables = await rowsOf<{ name: string }>(
    sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  for (const { name } of tables.filter((r) => !UNWATCHED.includes(r.name))) {
    await db().execute(
      sql.raw(
        `create trigger reach_probe after insert or update or delete on "${name}" for each row execute function reach_count_write()`,
      ),
    );
  }
  return tables.filter((r) => !UNWATCHED.includes(r.name)).map((r) => r.name);
}
const writes = async () => Number((await rowsOf<{ n: string }>(sql`select n from reach_write_probe`))[0]?.n);

/** A digest of every watched table's rows (order-independent). */
async function snapshot(tables: string[]): Promise<string> {
  const parts: string[] = [];
  for (const name of tables) {
    const [row] = await rowsOf<{ d: string | null }>(
      sql.raw(`select md5(coalesce(string_agg(md5(t::text), '' order by md5(t::text)), '')) as d from "${name}" t`),
    );
    parts.push(`${name}:${row?.d}`);
  }
  return parts.join('\n');
}

const tenantOf = (x: Who | Target) => (x === 'otherTenant' ? 'harrow' : 'main');
const PRACTICE_LEVEL: ReferenceKind[] = ['practice', 'hcp', 'rule', 'coverage'];
const TENANT_LEVEL: ReferenceKind[] = ['webhookEndpoint', 'webhookDelivery', 'integrationClient', 'account'];

/** Whether a record of `kind` in `target` is within `who`'s reach (the rules of lib/reach/resolvers.ts). */
function reachable(kind: ReferenceKind, who: Who, target: Foreign, id: string): boolean {
  if (target === 'random') return false;
  if (kind === 'self') return id === tokens[who].userID;
  if (kind === 'user') return id === tokens[who].userID || (ADMINS.includes(who) && tenantOf(who) === tenantOf(target));
  if (tenantOf(who) !== tenantOf(target as Target)) return false;
  if (TENANT_LEVEL.includes(kind)) return ADMINS.includes(who);
  if (kind === 'product') return true;
  if (kind === 'decision') return false;
  if (member(who, target as Target)) return true;
  if (PRACTICE_LEVEL.includes(kind)) return PROVIDER.includes(who);
  return supportOn(who, target as Target);
}

/** A record of each kind in each target practice (or tenant), read from or added to the demo data. */
const foreignIds = new Map<string, string | null>();
async function loadForeignIds() {
  for (const target of TARGETS) {
    const ids = fixture.ids[target];
    const office = ids.officeId;
    const first = async (query: ReturnType<typeof sql>) => (await rowsOf<{ id: string }>(query))[0]?.id ?? null;
    const tenant = await first(sql`select tenant_id as id from md_offices where id = ${office}`);
    // A rule and a coverage of the practice (the route table's own rows use the practice's id as theirs).
    await db()
      .insert(s.standingRules)
      .values({
        id: office,
        mdOfficeId: office,
        name: 'Reach rule',
        action: 'discontinued',
        patientId: ids.patientId,
        drugName: 'Reach drug',
      })
      .onConflictDoNothing();
    await db()
      .insert(s.coverages)
      .values({
        id: office,
        mdOfficeId: office,
        coveringStaffId: ids.prescriberIds[0],
        coveredStaffId: ids.prescriberIds[1],
        startsAt: new Date(),
        endsAt: new Date(Date.now() + 86_400_000),
      })
      .onConflictDoNothing();
    const put = (kind: ReferenceKind, id: string | null) => foreignIds.set(`${kind}:${target}`, id);
    put('practice', office);
    put('patient', ids.patientId);
    put('prescription', ids.rx.any);
    put('hcp', ids.prescriberIds[0]);
    put('mention', ids.mentionId);
    put('rule', office);
    put('coverage', office);
    put('self', ids.accountId);
    put('user', ids.accountId);
    put('account', ids.accountId);
    put(
      'appeal',
      await first(
        sql`select a.id from appeals a join prescriptions rx on rx.id = a.prescription_id where rx.md_office_id = ${office}`,
      ),
    );
    put(
      'file',
      await first(sql`select f.id from appeal_files f join appeals a on a.id = f.appeal_id
        join prescriptions rx on rx.id = a.prescription_id where rx.md_office_id = ${office}`),
    );
    put('webhookEndpoint', await first(sql`select id from webhook_endpoints where tenant_id = ${tenant}`));
    put(
      'webhookDelivery',
      await first(
        sql`select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where e.tenant_id = ${tenant}`,
      ),
    );
    put('integrationClient', await first(sql`select id from integration_clients where tenant_id = ${tenant}`));
  }
}

/** The other tenant gets a webhook endpoint, a delivery and an integration client, so those kinds have foreign ids. */
async function seedOtherTenant() {
  const [kim] = await db().select().from(s.users).where(eq(s.users.email, 'dr.kim@harrow.demo.hcp'));
  const tenantId = kim?.tenantId as string;
  await webhookFixture(db(), tenantId, fixture.ids.otherTenant.rx.any);
  await db()
    .insert(s.integrationClients)
    .values({
      tenantId,
      clientId: 'harrow-reach-matrix',
      name: 'Harrow Pharmacy',
      jwks: { keys: [] },
      scopes: ['system/Task.write'],
    });
}

const randomIdOf = (kind: ReferenceKind) => (kind === 'decision' ? generateRequestId() : crypto.randomUUID());

/** The call of `row` by `who` with the value at `reference` replaced by `id`; null when the call has no such place. */
function substituted(row: Row, plan: RoutePlan, who: Who, reference: ReferencePath, id: string) {
  const ids = fixture.ids[HOME[who]];
  const url = new URL(row.url(fixture, who, ids), 'http://matrix.test');
  const has = (value: unknown, path: string[]): boolean =>
    path.length === 0 ||
    (path[0] === '[]'
      ? Array.isArray(value) && value.length > 0 && has(value[0], path.slice(1))
      : Boolean(value) &&
        typeof value === 'object' &&
        (path[0] as string) in (value as object) &&
        has((value as Record<string, unknown>)[path[0] as string], path.slice(1)));
  const main = row.body?.(fixture, who, ids);
  const alt = row.altBody?.(fixture, who, ids);
  let body = reference.location === 'body' && !has(main, reference.path) && has(alt, reference.path) ? alt : main;
  let original: unknown;
  if (reference.location === 'params') {
    const index = plan.url.split('/').indexOf(`:${reference.path[0]}`);
    const segments = url.pathname.split('/');
    original = segments[index];
    segments[index] = encodeURIComponent(id);
    url.pathname = segments.join('/');
  } else if (reference.location === 'querystring') {
    original = url.searchParams.get(reference.path[0] as string);
    url.searchParams.set(reference.path[0] as string, id);
  } else {
    body = structuredClone(body ?? {});
    const set = (node: unknown, path: string[]): boolean => {
      const [step, ...rest] = path;
      if (step === undefined) return false;
      if (step === '[]' && rest.length === 0 && Array.isArray(node) && node.length > 0) {
        original = node[0];
        node.fill(id);
        return true;
      }
      if (step === '[]') return Array.isArray(node) && node.length > 0 && node.every((item) => set(item, rest));
      if (!node || typeof node !== 'object') return false;
      const holder = node as Record<string, unknown>;
      if (rest.length === 0) {
        original = holder[step];
        holder[step] = id;
        return true;
      }
      return set(holder[step], rest);
    };
    if (!set(body, reference.path)) return null;
  }
  return { url: `${url.pathname}${url.search}`, body, original };
}

async function cell(
  row: Row,
  who: Who,
  call: { url: string; body: unknown },
  label: string,
  mismatches: string[],
  isBody: boolean,
) {
  await row.prepare?.(fixture.ids[HOME[who]], db());
  const before = await writes();
  const res = await injectAs(t.app, tokens[who], {
    method: row.method,
    url: call.url,
    ...(call.body !== undefined ? { payload: call.body as Record<string, unknown> } : {}),
  });
  const written = (await writes()) - before;
  tally.cells += 1;
  if (isBody) tally.body += 1;
  if (res.statusCode === 404 && written === 0) tally.expected += 1;
  else {
    mismatches.push(`${label}: ${res.statusCode}, ${written} rows written ${res.body.slice(0, 100)}`);
    if (who === 'support' && row.path.endsWith('/support-access')) await openSupportWindow(t, tokens, fixture);
  }
}

let watched: string[];
let before: string;
beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  ({ tokens, fixture } = await setUpRouteTable(t));
  await seedOtherTenant();
  await loadForeignIds();
  plans = new Map(t.app.routePlans().map((p) => [`${p.method} ${p.url.replace(/:([A-Za-z]+)/g, '{$1}')}`, p]));
  // What the rows put back around their calls is in place before the digest is taken.
  for (const row of ROWS) for (const target of TARGETS) await row.prepare?.(fixture.ids[target], db());
  watched = await installWriteProbe();
  before = await snapshot(watched);
}, 120_000);
afterAll(async () => {
  process.stdout.write(`\nreach matrix: ${tally.expected} of ${tally.cells} cells, of which ${tally.body} body references\n`);
  await t.close();
});

describe('reach matrix (generated from the declared references)', () => {
  for (const row of ROWS) {
    it(`${row.method} ${row.path}`, async () => {
      const plan = plans.get(`${row.method} ${row.path}`);
      expect(plan, 'the route has a plan').toBeDefined();
      const mismatches: string[] = [];
      for (const reference of plan?.references ?? []) {
        for (const who of WHO) {
          for (const target of [...TARGETS, 'random'] as Foreign[]) {
            if (target === HOME[who] && !['self', 'user', 'account'].includes(reference.kind)) continue;
            const id = target === 'random' ? randomIdOf(reference.kind) : foreignIds.get(`${reference.kind}:${target}`);
            if (!id || reachable(reference.kind, who, target, id)) continue;
            const call = substituted(row, plan as RoutePlan, who, reference, id);
            if (!call || call.original === id) continue;
            const field = `${reference.location}.${reference.path.join('.')}`;
            await cell(
              row,
              who,
              call,
              `${who}, ${field} = ${reference.kind} of ${target}`,
              mismatches,
              reference.location === 'body',
            );
          }
        }
      }
      expect(mismatches).toEqual([]);
    });
  }

  it('refuses each declared pair when the record is within reach but belongs elsewhere', async () => {
    const mismatches: string[] = [];
    // Another patient's prescription in the same practice; an HCP of another practice the admin also manages.
    const [otherPatientsRx] = await db()
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .where(
        and(eq(s.prescriptions.mdOfficeId, fixture.ids.own.officeId), ne(s.prescriptions.patientId, fixture.ids.own.patientId)),
      )
      .limit(1);
    let pairs = 0;
    for (const row of ROWS) {
      const plan = plans.get(`${row.method} ${row.path}`) as RoutePlan;
      for (const reference of plan.references.filter((r) => r.of)) {
        const [who, id] =
          reference.kind === 'prescription'
            ? (['prescriber', otherPatientsRx?.id] as const)
            : reference.kind === 'hcp'
              ? (['admin', fixture.ids.other.prescriberIds[0]] as const)
              : (['admin', null] as const);
        if (!id) continue;
        const call = substituted(row, plan, who, reference, id);
        if (!call) continue;
        pairs += 1;
        await cell(
          row,
          who,
          call,
          `${row.method} ${row.path} ${reference.path.join('.')} of another ${reference.of}`,
          mismatches,
          reference.location === 'body',
        );
      }
    }
    expect(pairs).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });

  it('wrote nothing: every table but the audit log is as it was', async () => {
    expect(await snapshot(watched)).toBe(before);
    const refusals = await db().select().from(s.auditLog).where(eq(s.auditLog.action, 'reach.refused'));
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((r) => r.actorUserId !== null && (r.details as { route?: string }).route)).toBe(true);
  });
});
