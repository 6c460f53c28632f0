/** SQL of the auth feature. Returns rows or null; the service decides what a missing row means. */
import { and, eq, gt, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  loginAttempts,
  mdOffices,
  mfaChallenges,
  passwordResetTokens,
  refreshTokens,
  rememberMeDevices,
  revokedTokens,
  tenants,
  users,
} from '../../db/schema.ts';

/** What signing in needs of a user, found by `where` (their e-mail, or their id when a passkey names them). */
async function loginUserWhere(db: Executor, where: SQL) {
  const rows = await db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      tenantKey: tenants.key,
      email: users.email,
      phone: users.phone,
      role: users.role,
      passwordHash: users.passwordHash,
      mfaEnabled: users.mfaEnabled,
      failedLogins: users.failedLogins,
      lockedUntil: users.lockedUntil,
      disabledAt: users.disabledAt,
      googleSubject: users.googleSubject,
      harrowPortalAccess: mdOffices.harrowPortalAccess,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .leftJoin(mdOffices, eq(mdOffices.id, users.mdOfficeId))
    .where(where)
    .limit(1);
  return rows[0] ?? null;
}

export const findUserForLogin = (db: Executor, email: string) =>
  loginUserWhere(db, eq(sql`lower(${users.email})`, email.toLowerCase()));

export const findUserForLoginById = (db: Executor, id: string) => loginUserWhere(db, eq(users.id, id));
export type LoginUser = NonNullable<Awaited<ReturnType<typeof findUserForLogin>>>;

export async function findUserById(db: Executor, id: string) {
  const rows = await db
    .select({ id: users.id, tenantId: users.tenantId, role: users.role, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserEmail(db: Executor, id: string): Promise<string | null> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.id, id)).limit(1);
  return rows[0]?.email ?? null;
}

export async function recordLoginAttempt(db: Executor, email: string, ip: string | null, succeeded: boolean) {
  await db.insert(loginAttempts).values({ email: email.toLowerCase(), ip, succeeded });
}

export async function setLoginFailures(db: Executor, userId: string, failedLogins: number, lockedUntil: Date | null) {
  await db.update(users).set({ failedLogins, lockedUntil, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function tenantByKey(db: Executor, key: string) {
  const rows = await db.select().from(tenants).where(eq(tenants.key, key)).limit(1);
  return rows[0] ?? null;
}

export async function allTenants(db: Executor) {
  return db.select({ key: tenants.key, hostnames: tenants.hostnames }).from(tenants);
}

export async function insertRefreshToken(
  db: Executor,
  row: { familyId: string; userId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(row);
}

export async function findRefreshToken(db: Executor, tokenHash: string) {
  const rows = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
}

/** Marks a refresh token used; false when another request rotated it first. */
export async function markRotated(db: Executor, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ rotatedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeFamily(db: Executor, familyId: string, at: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes every session of a user, except the family given (the session changing its own password). */
export async function revokeAllFamiliesOfUser(db: Executor, userId: string, at: Date, exceptFamilyId?: string) {
  const rows = await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        exceptFamilyId ? ne(refreshTokens.familyId, exceptFamilyId) : undefined,
      ),
    )
    .returning({ familyId: refreshTokens.familyId });
  return [...new Set(rows.map((r) => r.familyId))];
}

export async function insertMfaChallenge(
  db: Executor,
  row: { id: string; userId: string; tokenHash: string; codeHash: string | null; expiresAt: Date },
) {
  await db.insert(mfaChallenges).values(row);
}

export async function findMfaChallenge(db: Executor, tokenHash: string) {
  const rows = await db.select().from(mfaChallenges).where(eq(mfaChallenges.tokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
}

export async function countMfaFailure(db: Executor, id: string, attempts: number, consume: boolean) {
  await db
    .update(mfaChallenges)
    .set({ attempts, consumedAt: consume ? new Date() : null })
    .where(eq(mfaChallenges.id, id));
}

/** Consumes a challenge once; false when it was already used (double submit). */
export async function consumeMfaChallenge(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(mfaChallenges)
    .set({ consumedAt: new Date() })
    .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.consumedAt)))
    .returning({ id: mfaChallenges.id });
  return rows.length === 1;
}

export async function insertRememberMe(db: Executor, row: { userId: string; tokenHash: string; expiresAt: Date }) {
  await db.insert(rememberMeDevices).values(row);
}

export async function findRememberMe(db: Executor, tokenHash: string) {
  const rows = await db.select().from(rememberMeDevices).where(eq(rememberMeDevices.tokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
}

export async function insertResetToken(db: Executor, row: { userId: string; tokenHash: string; expiresAt: Date }) {
  await db.insert(passwordResetTokens).values(row);
}

/** A reset token that is unused and unexpired, or null. */
export async function findUsableResetToken(db: Executor, tokenHash: string) {
  const rows = await db
    .select()
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Uses a reset token once; false when another request used it first. */
export async function useResetToken(db: Executor, id: string): Promise<boolean> {
  const rows = await db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.id, id), isNull(passwordResetTokens.usedAt)))
    .returning({ id: passwordResetTokens.id });
  return rows.length === 1;
}

export async function setPassword(db: Executor, userId: string, passwordHash: string) {
  await db
    .update(users)
    .set({ passwordHash, failedLogins: 0, lockedUntil: null, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function findPasswordHash(db: Executor, userId: string) {
  const rows = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.passwordHash ?? null;
}

/** A new code for a live challenge: failed tries are kept (5 in total end it), the clock restarts. */
export async function resendMfaCode(
  db: Executor,
  row: { id: string; codeHash: string; expiresAt: Date; sentAt: Date; maxResends: number },
): Promise<boolean> {
  const rows = await db
    .update(mfaChallenges)
    .set({ codeHash: row.codeHash, expiresAt: row.expiresAt, sentAt: row.sentAt, resends: sql`${mfaChallenges.resends} + 1` })
    .where(and(eq(mfaChallenges.id, row.id), isNull(mfaChallenges.consumedAt), lt(mfaChallenges.resends, row.maxResends)))
    .returning({ id: mfaChallenges.id });
  return rows.length === 1;
}

export async function setGoogleSubject(db: Executor, userId: string, subject: string) {
  await db.update(users).set({ googleSubject: subject }).where(eq(users.id, userId));
}

/** Forgets every remembered device of the user: the next sign-in on any of them asks for a code again. */
export async function deleteRememberedDevices(db: Executor, userId: string): Promise<number> {
  const rows = await db
    .delete(rememberMeDevices)
    .where(eq(rememberMeDevices.userId, userId))
    .returning({ id: rememberMeDevices.id });
  return rows.length;
}

export async function countRememberedDevices(db: Executor, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(rememberMeDevices)
    .where(and(eq(rememberMeDevices.userId, userId), gt(rememberMeDevices.expiresAt, now)));
  return row?.n ?? 0;
}

/**
 * Deletes sign-in rows that can no longer be used. Expired secrets are kept a day for investigation
 * (audit_log keeps the story for good); sign-in attempts 30 days.
 */
export async function purgeExpired(db: Executor, now: Date) {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const monthAgo = new Date(now.getTime() - 30 * 86_400_000);
  const count = async (q: Promise<unknown[]>) => (await q).length;
  return {
    revokedTokens: await count(
      db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now)).returning({ id: revokedTokens.id }),
    ),
    refreshTokens: await count(
      db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, dayAgo)).returning({ id: refreshTokens.id }),
    ),
    mfaChallenges: await count(
      db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, dayAgo)).returning({ id: mfaChallenges.id }),
    ),
    resetTokens: await count(
      db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, dayAgo)).returning({ id: passwordResetTokens.id }),
    ),
    rememberedDevices: await count(
      db.delete(rememberMeDevices).where(lt(rememberMeDevices.expiresAt, now)).returning({ id: rememberMeDevices.id }),
    ),
    loginAttempts: await count(
      db.delete(loginAttempts).where(lt(loginAttempts.createdAt, monthAgo)).returning({ id: loginAttempts.id }),
    ),
  };
}

/** Cancels the user's pending sign-in codes (their challenges can no longer be answered). */
export async function consumeOpenChallenges(db: Executor, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(mfaChallenges)
    .set({ consumedAt: at })
    .where(and(eq(mfaChallenges.userId, userId), isNull(mfaChallenges.consumedAt)))
    .returning({ id: mfaChallenges.id });
  return rows.length;
}
