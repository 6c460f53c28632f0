/** The rows of a user's sign-in factors (issue 48): the authenticator app and the recovery codes. */
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { authenticatorApps, passkeyChallenges, passkeys, recoveryCodes, users } from '../../db/schema.ts';
import { PRESCRIBER_ROLES_PARAM } from '../../lib/practice-prescribers.ts';

export async function authenticatorOf(db: Executor, userId: string) {
  const [row] = await db
    .select({
      secretSealed: authenticatorApps.secretSealed,
      confirmedAt: authenticatorApps.confirmedAt,
      lastStep: authenticatorApps.lastStep,
    })
    .from(authenticatorApps)
    .where(eq(authenticatorApps.userId, userId));
  return row ?? null;
}

/** Whether the user has a confirmed app (a set-up in progress is not a factor). */
export async function hasAuthenticator(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(authenticatorApps)
    .where(and(eq(authenticatorApps.userId, userId), isNotNull(authenticatorApps.confirmedAt)));
  return (row?.n ?? 0) > 0;
}

/** Starts (or starts again) a set-up with this secret; false, with nothing changed, when an app is confirmed. */
export async function startAuthenticator(db: Executor, userId: string, secretSealed: string): Promise<boolean> {
  const rows = await db
    .insert(authenticatorApps)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: authenticatorApps.userId,
      set: { secretSealed, createdAt: sql`now()`, lastStep: null },
      setWhere: isNull(authenticatorApps.confirmedAt),
    })
    .returning({ userId: authenticatorApps.userId });
  return rows.length > 0;
}

/** The set-up becomes the user's factor, its first code's step taken; false when there was no set-up to confirm. */
export async function confirmAuthenticator(db: Executor, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(authenticatorApps)
    .set({ confirmedAt: sql`now()`, lastStep: step })
    .where(and(eq(authenticatorApps.userId, userId), isNull(authenticatorApps.confirmedAt)))
    .returning({ userId: authenticatorApps.userId });
  return rows.length > 0;
}

/**
 * Takes a code's 30-second step for a confirmed app, once: false when this step or a later one was taken already (a
 * code seen on a shoulder or in a proxy's log cannot be used again). One statement, so two racing sign-ins with the
 * same code cannot both pass.
 */
export async function takeStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(authenticatorApps)
    .set({ lastStep: step })
    .where(
      and(
        eq(authenticatorApps.userId, userId),
        isNotNull(authenticatorApps.confirmedAt),
        or(isNull(authenticatorApps.lastStep), lt(authenticatorApps.lastStep, step)),
      ),
    )
    .returning({ userId: authenticatorApps.userId });
  return rows.length > 0;
}

/** Removes the app (confirmed or in set-up); false when there was none. */
export async function removeAuthenticator(db: Executor, userId: string): Promise<boolean> {
  const rows = await db
    .delete(authenticatorApps)
    .where(eq(authenticatorApps.userId, userId))
    .returning({ userId: authenticatorApps.userId });
  return rows.length > 0;
}

/** The user's recovery codes become these (by hash): every earlier one, used or not, stops working. */
export async function replaceRecoveryCodes(db: Executor, userId: string, hashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (hashes.length > 0) await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses an unused recovery code of the user, once; false when none matches. */
export async function useRecoveryCode(db: Executor, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** The account's e-mail address (where its changes are told) and password hash (asked again before a removal). */
export async function accountOf(db: Executor, userId: string) {
  const [row] = await db.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row ?? null;
}

export async function passkeysOf(db: Executor, userId: string) {
  return db
    .select({
      id: passkeys.id,
      credentialId: passkeys.credentialId,
      publicKey: passkeys.publicKey,
      counter: passkeys.counter,
      transports: passkeys.transports,
      name: passkeys.name,
      backedUp: passkeys.backedUp,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      attestationFormat: passkeys.attestationFormat,
      aaguid: passkeys.aaguid,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(passkeys.createdAt);
}

export async function hasPasskey(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return (row?.n ?? 0) > 0;
}

export async function insertPasskey(db: Executor, row: typeof passkeys.$inferInsert): Promise<string | null> {
  const rows = await db.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id });
  return rows[0]?.id ?? null;
}

/** The passkey's new signature count and use; false when its count did not go forward (a cloned key) or it is gone. */
export async function usePasskey(db: Executor, id: string, counter: number): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter, lastUsedAt: sql`now()` })
    // A key that keeps no count answers 0 every time (most passkeys): only a count that is kept must go forward.
    .where(and(eq(passkeys.id, id), or(eq(passkeys.counter, 0), lt(passkeys.counter, counter))))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

export async function renamePasskey(db: Executor, userId: string, id: string, name: string): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

export async function removePasskey(db: Executor, userId: string, id: string): Promise<string | null> {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name });
  return rows[0]?.name ?? null;
}

export async function removeAllPasskeys(db: Executor, userId: string): Promise<number> {
  return (await db.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id })).length;
}

/** What a challenge is for: registering, the second step, a passkey-only login, or a step-up (EPCS). */
export type ChallengePurpose = 'register' | 'sign-in' | 'login' | 'step-up';

export async function insertPasskeyChallenge(
  db: Executor,
  row: { userId: string | null; purpose: ChallengePurpose; challenge: string; expiresAt: Date },
) {
  await db.insert(passkeyChallenges).values(row);
}

/** Takes the user's open challenge for `purpose` that equals `challenge`, once; false when there is none. */
export async function takePasskeyChallenge(
  db: Executor,
  userId: string,
  purpose: 'register' | 'sign-in' | 'step-up',
  challenge: string,
): Promise<boolean> {
  const rows = await db
    .update(passkeyChallenges)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passkeyChallenges.userId, userId),
        eq(passkeyChallenges.purpose, purpose),
        eq(passkeyChallenges.challenge, challenge),
        isNull(passkeyChallenges.usedAt),
        sql`${passkeyChallenges.expiresAt} > now()`,
      ),
    )
    .returning({ id: passkeyChallenges.id });
  return rows.length > 0;
}

/** Housekeeping: challenges past their time. */
export async function purgePasskeyChallenges(db: Executor, now: Date): Promise<Record<string, number>> {
  const rows = await db
    .delete(passkeyChallenges)
    .where(lt(passkeyChallenges.expiresAt, now))
    .returning({ id: passkeyChallenges.id });
  return { passkeyChallenges: rows.length };
}

/** Takes an open challenge of a sign-in by passkey alone (no user known yet), once; false when there is none. */
export async function takeLoginChallenge(db: Executor, challenge: string): Promise<boolean> {
  const rows = await db
    .update(passkeyChallenges)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        isNull(passkeyChallenges.userId),
        eq(passkeyChallenges.purpose, 'login'),
        eq(passkeyChallenges.challenge, challenge),
        isNull(passkeyChallenges.usedAt),
        sql`${passkeyChallenges.expiresAt} > now()`,
      ),
    )
    .returning({ id: passkeyChallenges.id });
  return rows.length > 0;
}

/** The passkey of this credential id, whoever owns it (a sign-in by passkey alone finds its user by it). */
export async function passkeyByCredential(db: Executor, credentialId: string) {
  const [row] = await db
    .select({
      id: passkeys.id,
      userId: passkeys.userId,
      credentialId: passkeys.credentialId,
      publicKey: passkeys.publicKey,
      counter: passkeys.counter,
    })
    .from(passkeys)
    .where(eq(passkeys.credentialId, credentialId));
  return row ?? null;
}

// Sign-in policy (decision 0060).
export interface PolicyCaller {
  role: string;
  tenantId: string;
  isAdmin: boolean;
}

export async function policyCallerOf(db: Executor, userId: string): Promise<PolicyCaller | null> {
  const [row] = (
    (await db.execute(
      sql`select role, tenant_id as "tenantId" from users where id = ${userId} and disabled_at is null`,
    )) as unknown as {
      rows: { role: string; tenantId: string }[];
    }
  ).rows;
  return row ? { ...row, isAdmin: row.role === 'provider.admin' } : null;
}

/** A practice of the caller's tenant with its policy, and whether the caller is one of its prescribers or a member. */
export async function practicePolicyOf(db: Executor, userId: string, practiceId: string) {
  const [row] = (
    (await db.execute(sql`
    select o.strong_factor_required as "strongFactorRequired", t.strong_factor_required as "requiredByProvider",
      exists (select 1 from office_members m join md_staff s on s.id = m.md_staff_id
        where m.md_office_id = o.id and s.id = u.md_staff_id and upper(s.role) = any(${PRESCRIBER_ROLES_PARAM})) as "isPrescriber",
      (o.id = u.md_office_id or exists (select 1 from office_members m where m.md_office_id = o.id and m.md_staff_id = u.md_staff_id))
        as "isMember"
    from md_offices o join users u on u.id = ${userId} and u.tenant_id = o.tenant_id and u.disabled_at is null
      join tenants t on t.id = o.tenant_id
    where o.id = ${practiceId} and o.deleted_at is null`)) as unknown as {
      rows: { strongFactorRequired: boolean; requiredByProvider: boolean; isPrescriber: boolean; isMember: boolean }[];
    }
  ).rows;
  return row ?? null;
}

export async function tenantPolicyOf(db: Executor, tenantId: string) {
  const [row] = (
    (await db.execute(sql`select strong_factor_required as "strongFactorRequired", email_codes_allowed as "emailCodesAllowed"
    from tenants where id = ${tenantId}`)) as unknown as { rows: { strongFactorRequired: boolean; emailCodesAllowed: boolean }[] }
  ).rows;
  return row ?? null;
}

export async function setTenantPolicy(
  db: Executor,
  tenantId: string,
  policy: { strongFactorRequired: boolean; emailCodesAllowed: boolean },
) {
  await db.execute(sql`update tenants set strong_factor_required = ${policy.strongFactorRequired},
    email_codes_allowed = ${policy.emailCodesAllowed} where id = ${tenantId}`);
}

export async function setPracticePolicy(db: Executor, practiceId: string, strongFactorRequired: boolean) {
  await db.execute(
    sql`update md_offices set strong_factor_required = ${strongFactorRequired}, updated_at = now() where id = ${practiceId}`,
  );
}
