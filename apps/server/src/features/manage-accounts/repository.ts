/** SQL of Manage Accounts: the portal sign-ins (users) of one tenant. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mdOffices, users } from '../../db/schema.ts';
import { likeEscape } from '../../lib/sql-like.ts';

export interface AccountRow {
  id: string;
  display_name: string;
  email: string;
  role: string;
  md_office_id: string | null;
  practice_name: string | null;
  mfa_enabled: boolean;
  disabled: boolean;
  invited: boolean;
  total: number;
}

const accountColumns = sql`u.id, u.display_name, u.email, u.role, u.md_office_id, o.name as practice_name, u.mfa_enabled,
  (u.disabled_at is not null) as disabled, (u.password_hash is null and u.google_subject is null) as invited`;

export async function searchAccounts(
  db: Executor,
  input: { tenantId: string; searchText: string; offset: number; limit: number },
): Promise<{ rows: AccountRow[]; total: number }> {
  const like = `%${likeEscape(input.searchText.toLowerCase())}%`;
  const match = input.searchText
    ? sql`(lower(u.display_name) like ${like} or lower(u.email) like ${like} or lower(coalesce(o.name, '')) like ${like})`
    : sql`true`;
  const where = sql`u.tenant_id = ${input.tenantId} and ${match}`;
  const result = (await db.execute(sql`
    select ${accountColumns}, count(*) over ()::int as total
    from users u left join md_offices o on o.id = u.md_office_id
    where ${where}
    order by (u.disabled_at is not null), lower(u.display_name), u.id
    limit ${input.limit} offset ${input.offset}`)) as unknown as { rows: AccountRow[] };
  if (result.rows.length > 0 || input.offset === 0) return { rows: result.rows, total: result.rows[0]?.total ?? 0 };
  const counted = (await db.execute(
    sql`select count(*)::int as total from users u left join md_offices o on o.id = u.md_office_id where ${where}`,
  )) as unknown as { rows: { total: number }[] };
  return { rows: [], total: counted.rows[0]?.total ?? 0 };
}

export async function findAccount(db: Executor, tenantId: string, userId: string): Promise<AccountRow | null> {
  const result = (await db.execute(sql`
    select ${accountColumns}, 1 as total from users u left join md_offices o on o.id = u.md_office_id
    where u.id = ${userId} and u.tenant_id = ${tenantId}`)) as unknown as { rows: AccountRow[] };
  return result.rows[0] ?? null;
}

export async function emailTaken(db: Executor, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return rows.length > 0;
}

export async function officeOfTenant(db: Executor, tenantId: string, officeId: string): Promise<boolean> {
  const rows = await db
    .select({ id: mdOffices.id })
    .from(mdOffices)
    .where(and(eq(mdOffices.id, officeId), eq(mdOffices.tenantId, tenantId), isNull(mdOffices.deletedAt)))
    .limit(1);
  return rows.length > 0;
}

export async function insertAccount(db: Executor, values: typeof users.$inferInsert): Promise<{ id: string }> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row as { id: string };
}

export async function updateAccount(db: Executor, userId: string, values: Partial<typeof users.$inferInsert>) {
  await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}
