/** A session's life after sign-in: renewing its tokens, signing out, and ending every session of a user. */
import type { RefreshResponse } from '@hcp/contract';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import {
  AUTH_LIMITS,
  type AuthCore,
  type AuthServiceDeps,
  auditUser,
  REFRESH_FAILED_MESSAGE,
  type RequestContext,
} from './core.ts';
import * as repo from './repository.ts';

export function sessionUseCases(deps: AuthServiceDeps, core: AuthCore) {
  const { db, signer, denyList } = deps;
  const { revokeFamily, denyFamilies, accessTokenFor } = core;

  async function refresh(refreshToken: string, ctx: RequestContext): Promise<RefreshResponse> {
    const row = await repo.findRefreshToken(db, sha256(refreshToken));
    const ended = new AppError('UNAUTHORIZED', REFRESH_FAILED_MESSAGE);
    if (!row || row.revokedAt || row.expiresAt < new Date()) throw ended;
    const now = new Date();
    // Within the grace window a rotated token is a race, not theft: a page that sent it and navigated away
    // before storing the answer, or two tabs. It gets a fresh pair in the same family instead of a 401 that
    // signs the person out (seen in e2e: a reload at the wrong moment ended the session).
    const racing =
      row.rotatedAt !== null && (now.getTime() - row.rotatedAt.getTime()) / 1000 <= AUTH_LIMITS.refreshReuseGraceSeconds;
    if (row.rotatedAt && !racing) {
      // A token used twice, well apart: someone else holds a copy. End every session of that family.
      await revokeFamily(row.familyId, now);
      await auditUser(db, row.userId, 'auth.refresh.reuse', ctx);
      throw ended;
    }
    const user = await repo.findUserById(db, row.userId);
    if (!user || user.disabledAt) throw ended;
    if (racing) await auditUser(db, row.userId, 'auth.refresh.race', ctx);
    const rotated = await db.transaction(async (tx) => {
      if (!racing && !(await repo.markRotated(tx, row.id, now))) return null;
      const next = randomToken();
      await repo.insertRefreshToken(tx, {
        familyId: row.familyId,
        userId: row.userId,
        tokenHash: sha256(next),
        expiresAt: new Date(now.getTime() + deps.refreshTokenTtlSeconds * 1000),
      });
      return next;
    });
    if (!rotated) throw ended;
    const access = await accessTokenFor(user, row.familyId);
    return { accessToken: access.token, refreshToken: rotated, ...(access.enrol && { enrolmentRequired: true as const }) };
  }

  /** Idempotent: whatever was presented and still valid is revoked; the answer is always the same. */
  async function logout(
    input: { userId: string; accessToken: string; refreshToken: string },
    ctx: RequestContext,
  ): Promise<void> {
    const claims = await signer.verify(input.accessToken, { allowExpired: true });
    if (claims && claims.userId === input.userId && claims.expiresAt > new Date()) {
      await denyList.revoke(claims.jti, 'jti', claims.expiresAt);
    }
    const row = input.refreshToken ? await repo.findRefreshToken(db, sha256(input.refreshToken)) : null;
    if (row && row.userId === input.userId) await revokeFamily(row.familyId, new Date());
    if ((claims && claims.userId === input.userId) || (row && row.userId === input.userId)) {
      await auditUser(db, input.userId, 'auth.logout', ctx);
    }
  }

  /** Ends every session of a user at once (an account disabled by an admin). */
  async function endAllSessions(userId: string): Promise<void> {
    const now = new Date();
    await denyFamilies(await repo.revokeAllFamiliesOfUser(db, userId, now), now);
  }

  return { refresh, logout, endAllSessions };
}
