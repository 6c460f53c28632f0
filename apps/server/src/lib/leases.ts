/**
 * A job's lease (issue 24): whoever takes it runs the job; others skip until it expires. Taken in one statement on
 * the database clock, so two instances asking at the same moment cannot both win.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';

export async function takeLease(db: Executor, name: string, holder: string, seconds: number): Promise<boolean> {
  const result = (await db.execute(sql`
    insert into job_leases (name, holder, expires_at)
    values (${name}, ${holder}, now() + make_interval(secs => ${seconds}))
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where job_leases.expires_at <= now()
    returning holder`)) as unknown as { rows: { holder: string }[] };
  return result.rows.length === 1;
}
