/**
 * A tenant's or a practice's sign-in policy (issue 48, decision 0060): whether a user must have a strong factor (a
 * passkey or an authenticator app) and whether a mailed code may stand in for one. Read where tokens are issued
 * (auth: a user who must and has none gets a token good only for adding one) and where a factor is removed
 * (sign-in-factors: the last one is not removed while one is required).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';

export interface SignInPolicy {
  /** A strong factor is required of this user, and by whom. */
  strongFactorRequired: boolean;
  requiredBy: 'provider' | 'practice' | null;
  emailCodesAllowed: boolean;
  hasStrongFactor: boolean;
}

export async function signInPolicyOf(db: Executor, userId: string): Promise<SignInPolicy> {
  const [row] = (
    (await db.execute(sql`
    select t.strong_factor_required as "byProvider", t.email_codes_allowed as "emailCodesAllowed",
      exists (select 1 from md_offices o where o.strong_factor_required and o.deleted_at is null and u.role = 'mdo.user'
        and (o.id = u.md_office_id or exists (select 1 from office_members m where m.md_office_id = o.id and m.md_staff_id = u.md_staff_id)))
        as "byPractice",
      (exists (select 1 from authenticator_apps a where a.user_id = u.id and a.confirmed_at is not null)
        or exists (select 1 from passkeys p where p.user_id = u.id)) as "hasStrongFactor"
    from users u join tenants t on t.id = u.tenant_id where u.id = ${userId}`)) as unknown as {
      rows: { byProvider: boolean; byPractice: boolean; emailCodesAllowed: boolean; hasStrongFactor: boolean }[];
    }
  ).rows;
  if (!row) return { strongFactorRequired: false, requiredBy: null, emailCodesAllowed: true, hasStrongFactor: false };
  return {
    strongFactorRequired: row.byProvider || row.byPractice,
    requiredBy: row.byProvider ? 'provider' : row.byPractice ? 'practice' : null,
    emailCodesAllowed: row.emailCodesAllowed,
    hasStrongFactor: row.hasStrongFactor,
  };
}

/** Whether this user must add a strong factor before anything else. */
export const mustEnrol = (policy: SignInPolicy) => policy.strongFactorRequired && !policy.hasStrongFactor;
