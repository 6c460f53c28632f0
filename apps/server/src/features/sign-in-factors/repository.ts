/** The rows of a user's sign-in factors (issue 48): the authenticator app and the recovery codes. */
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { authenticatorApps, recoveryCodes, users } from '../../db/schema.ts';

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
