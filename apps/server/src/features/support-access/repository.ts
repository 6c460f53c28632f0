/**
 * SQL of support access and the practice overview. Window times use the database clock
 * (statement_timestamp()), the same clock `patientScopeSql` checks them with, on every instance.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { practiceScopeSql } from '../../lib/office-scope.ts';
import { altMedPendingSql, priorAuthNeedsActionSql, refillDueSql } from '../../lib/prescription-sql.ts';
import { likeEscape } from '../../lib/sql-like.ts';

export interface GrantRow {
  id: string;
  mdOfficeId: string;
  practiceName: string;
  userName: string;
  reason: string;
  startedAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  active: boolean;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const grantColumns = sql`g.id, g.md_office_id as "mdOfficeId", o.name as "practiceName", u.display_name as "userName",
  g.reason, g.started_at as "startedAt", g.expires_at as "expiresAt", g.ended_at as "endedAt",
  (g.ended_at is null and g.expires_at > statement_timestamp()) as active`;

async function selectGrants(db: Executor, where: SQL, limit: number): Promise<GrantRow[]> {
  const result = await db.execute(sql`select ${grantColumns}
    from support_access_grants g join md_offices o on o.id = g.md_office_id join users u on u.id = g.user_id
    where ${where} order by g.started_at desc, g.id limit ${limit}`);
  return rowsOf<GrantRow>(result).map((r) => ({
    ...r,
    startedAt: new Date(r.startedAt),
    expiresAt: new Date(r.expiresAt),
    endedAt: r.endedAt ? new Date(r.endedAt) : null,
  }));
}

/** Whether the practice is one the user works with (a sales user's assigned ones, an admin's tenant). */
export async function isPracticeInScope(db: Executor, userId: string, officeId: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from md_offices o where o.id = ${officeId} and o.id in (${practiceScopeSql(userId)})`,
  );
  return rowsOf(result).length > 0;
}

/** Ends the user's open window, if any; the ended row's id or null. */
export async function endOpenGrant(db: Executor, userId: string): Promise<{ id: string; mdOfficeId: string } | null> {
  const result = await db.execute(sql`update support_access_grants set ended_at = statement_timestamp()
    where user_id = ${userId} and ended_at is null and expires_at > statement_timestamp()
    returning id, md_office_id as "mdOfficeId"`);
  return rowsOf<{ id: string; mdOfficeId: string }>(result)[0] ?? null;
}

export async function insertGrant(
  db: Executor,
  input: { userId: string; mdOfficeId: string; reason: string; minutes: number; requestId: string },
): Promise<string> {
  const result =
    await db.execute(sql`insert into support_access_grants (user_id, md_office_id, reason, request_id, started_at, expires_at)
    values (${input.userId}, ${input.mdOfficeId}, ${input.reason}, ${input.requestId}, statement_timestamp(),
      statement_timestamp() + make_interval(mins => ${input.minutes}::int))
    returning id`);
  const row = rowsOf<{ id: string }>(result)[0];
  if (!row) throw new Error('support access insert returned no row');
  return row.id;
}

export async function grantById(db: Executor, id: string): Promise<GrantRow | null> {
  return (await selectGrants(db, sql`g.id = ${id}`, 1))[0] ?? null;
}

export async function openGrantOf(db: Executor, userId: string): Promise<GrantRow | null> {
  const where = sql`g.user_id = ${userId} and g.ended_at is null and g.expires_at > statement_timestamp()`;
  return (await selectGrants(db, where, 1))[0] ?? null;
}

export async function grantsOfPractice(db: Executor, officeId: string, limit: number): Promise<GrantRow[]> {
  return selectGrants(db, sql`g.md_office_id = ${officeId}`, limit);
}

/** The practice (`o`) whose name contains the search text, when there is one. */
const nameMatches = (searchText: string | undefined): SQL =>
  searchText ? sql`and o.name ilike ${`%${likeEscape(searchText)}%`}` : sql``;

export interface WorkloadRow {
  mdOfficeId: string;
  name: string;
  city: string | null;
  state: string | null;
  altMed: number;
  appeals: number;
  phoneException: number;
  priorAuth: number;
  refillAuth: number;
  unreadComments: number;
  totalPractices: number;
}

/**
 * Per practice of the user's practice scope: how many prescriptions wait in each Action Needed category
 * (the contract's rules as SQL, lib/prescription-sql.ts) and unread patient comments. Counts only: no
 * patient, prescriber or drug leaves this query. Busiest practices first.
 */
export async function practiceWorkload(
  db: Executor,
  input: { userId: string; todayIso: string; searchText: string | undefined; offset: number; limit: number },
): Promise<WorkloadRow[]> {
  const result = await db.execute(sql`
    with scope as (${practiceScopeSql(input.userId)}),
    counts as (
      select rx.md_office_id,
        count(*) filter (where ${altMedPendingSql('rx')})::int as "altMed",
        count(*) filter (where rx.hcp_action_required)::int as appeals,
        count(*) filter (where rx.phone_exception)::int as "phoneException",
        count(*) filter (where ${priorAuthNeedsActionSql('rx')})::int as "priorAuth",
        count(*) filter (where ${refillDueSql('rx', input.todayIso)})::int as "refillAuth"
      from prescriptions rx join patients pt on pt.id = rx.patient_id
      where rx.md_office_id in (select id from scope)
      group by rx.md_office_id
    ),
    unread as (
      select m.md_office_id, count(*)::int as n from comment_mentions m
      where m.md_office_id in (select id from scope) and m.read_at is null group by m.md_office_id
    )
    select o.id as "mdOfficeId", o.name, o.city, o.state,
      coalesce(c."altMed", 0) as "altMed", coalesce(c.appeals, 0) as appeals,
      coalesce(c."phoneException", 0) as "phoneException", coalesce(c."priorAuth", 0) as "priorAuth",
      coalesce(c."refillAuth", 0) as "refillAuth", coalesce(n.n, 0) as "unreadComments",
      count(*) over ()::int as "totalPractices"
    from md_offices o left join counts c on c.md_office_id = o.id left join unread n on n.md_office_id = o.id
    where o.id in (select id from scope) ${nameMatches(input.searchText)}
    order by coalesce(c."altMed", 0) + coalesce(c.appeals, 0) + coalesce(c."phoneException", 0)
      + coalesce(c."priorAuth", 0) + coalesce(c."refillAuth", 0) desc, lower(o.name), o.id
    offset ${input.offset} limit ${input.limit}`);
  return rowsOf<WorkloadRow>(result);
}

export async function countPracticesInScope(db: Executor, userId: string, searchText: string | undefined): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from md_offices o where o.id in (${practiceScopeSql(userId)}) ${nameMatches(searchText)}`,
  );
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}
