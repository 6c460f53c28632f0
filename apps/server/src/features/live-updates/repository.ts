/** SQL of live updates: the practices whose items a user's stream carries. */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { patientScopeSql } from '../../lib/office-scope.ts';

export async function officesInScope(db: Executor, userId: string): Promise<string[]> {
  const result = (await db.execute(sql`select id from md_offices where id in (${patientScopeSql(userId)})`)) as unknown as {
    rows: { id: string }[];
  };
  return result.rows.map((r) => r.id);
}
