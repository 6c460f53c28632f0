/**
 * What every sign-in use case shares (DESIGN §6): the limits, the request's context, the audit row of a sign-in event,
 * and issuing and revoking tokens in families. Each use case has its own file beside this one; service.ts puts them
 * behind one face.
 */
import { randomUUID } from 'node:crypto';
import type { PasskeyAssertion } from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { mustEnrol, signInPolicyOf } from '../../lib/sign-in-policy.ts';
import type { DenyList } from '../../plugins/deny-list.ts';
import type { GoogleVerifier } from './google.ts';
import * as repo from './repository.ts';
import type { TokenSigner } from './tokens.ts';

export const AUTH_LIMITS = {
  maxFailedLogins: 5,
  lockBaseSeconds: 60,
  lockMaxSeconds: 30 * 60,
  mfaCodeSeconds: 10 * 60,
  mfaMaxAttempts: 5,
  rememberMeDays: 30,
  /** A rotated refresh token presented again within this window is a race between tabs, not theft. */
  refreshReuseGraceSeconds: 30,
  resetTokenSeconds: 30 * 60,
  /** An invitation link (a reset token for an account without a password) stays valid for a week. */
  invitationSeconds: 7 * 24 * 3600,
} as const;

export const LOGIN_FAILED_MESSAGE = 'Email or password is incorrect.';
export const REFRESH_FAILED_MESSAGE = 'Your session has ended. Please sign in again.';

export interface RequestContext {
  ip: string | null;
  requestId: string;
  /** Host name of the request (no port): decides the brand being signed in to. */
  hostname: string;
  /** protocol://host[:port] of the request, to build the other brand's address. */
  origin: { protocol: string; port: string };
}

/** Where a passkey ceremony happens: the page's origin and the relying party's id (its host name). */
export interface PasskeySite {
  origin: string;
  rpID: string;
}

/** The sign-in factors MFA may use besides a mailed code (features/sign-in-factors, issue 48). */
export interface SecondFactors {
  /** The account's strong factors, in the order the sign-in offers them. */
  strongFactors(userId: string): Promise<('passkey' | 'totp')[]>;
  checkAuthenticatorCode(userId: string, code: string): Promise<boolean>;
  useRecoveryCode(userId: string, code: string, ctx: { ip: string | null; requestId: string }): Promise<boolean>;
  signInOptions(userId: string, site: PasskeySite): Promise<unknown>;
  checkPasskey(userId: string, assertion: PasskeyAssertion, site: PasskeySite): Promise<boolean>;
  loginOptions(site: PasskeySite): Promise<unknown>;
  /** The user a passkey alone signs in (verified, counter forward), or null. */
  userOfPasskeyLogin(assertion: PasskeyAssertion, site: PasskeySite): Promise<string | null>;
  /** An administrator's reset, in the caller's transaction: null when there was nothing; else the mail to send after. */
  removeAllByAdministrator(tx: Executor, userId: string): Promise<(() => Promise<unknown>) | null>;
}

/** The origin and relying-party id of the request's page (its own host: each brand's host name has its own keys). */
export function passkeySiteOf(ctx: RequestContext): PasskeySite {
  const port = ctx.origin.port ? `:${ctx.origin.port}` : '';
  return { origin: `${ctx.origin.protocol}://${ctx.hostname}${port}`, rpID: ctx.hostname };
}

export interface AuthServiceDeps {
  db: Database;
  /** Absent: mailed codes only. */
  factors?: SecondFactors;
  signer: TokenSigner;
  denyList: DenyList;
  mailer: Mailer;
  signingKey: string;
  refreshTokenTtlSeconds: number;
  google: GoogleVerifier;
  /** Told of each refused sign-in and lockout (the /metrics counters); no one's identity goes with it. */
  signals?: { signInFailed(reason: 'bad-password' | 'unknown-email' | 'locked' | 'mfa'): void; lockedOut(): void };
}

/** Audit rows of sign-in are about one user's own account (or no account, for unknown e-mails). */
export function auditUser(
  executor: Executor,
  userId: string | null,
  action: string,
  ctx: RequestContext,
  details: Record<string, unknown> = {},
) {
  return writeAudit(executor, {
    actorUserId: userId,
    action,
    entityType: 'user',
    entityId: userId,
    requestId: ctx.requestId,
    ip: ctx.ip,
    details,
  });
}

export function lockSecondsAfter(failedLogins: number): number {
  if (failedLogins < AUTH_LIMITS.maxFailedLogins) return 0;
  const doublings = failedLogins - AUTH_LIMITS.maxFailedLogins;
  return Math.min(AUTH_LIMITS.lockBaseSeconds * 2 ** doublings, AUTH_LIMITS.lockMaxSeconds);
}

/** Issuing a family's tokens and ending families: the access side (deny list) and the refresh side together. */
export function createAuthCore(deps: AuthServiceDeps) {
  const { db, signer, denyList } = deps;

  async function issueTokens(user: { id: string; tenantId: string; role: string }, familyId = randomUUID()) {
    const refreshToken = randomToken();
    await repo.insertRefreshToken(db, {
      familyId,
      userId: user.id,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(Date.now() + deps.refreshTokenTtlSeconds * 1000),
    });
    const access = await accessTokenFor(user, familyId);
    return {
      accessToken: access.token,
      refreshToken,
      userID: user.id,
      ...(access.enrol && { enrolmentRequired: true as const }),
    };
  }

  /**
   * An access token for the user. One who must have a strong factor and has none gets a token good only for adding
   * one (decision 0060); each refresh asks again, so the first refresh after adding one gives a full token.
   */
  async function accessTokenFor(user: { id: string; tenantId: string; role: string }, familyId: string) {
    const enrol = mustEnrol(await signInPolicyOf(db, user.id));
    return { ...(await signer.issue(user, familyId, enrol ? 'enrol' : undefined)), enrol };
  }

  /** Access tokens of a revoked family live at most one access-token lifetime from `at`: deny them that long. */
  async function denyFamilies(familyIds: string[], at: Date) {
    const until = new Date(at.getTime() + signer.ttlSeconds * 1000);
    await Promise.all(familyIds.map((id) => denyList.revoke(id, 'family', until)));
  }

  async function revokeFamily(familyId: string, at: Date) {
    await repo.revokeFamily(db, familyId, at);
    await denyFamilies([familyId], at);
  }

  return { issueTokens, accessTokenFor, denyFamilies, revokeFamily };
}
export type AuthCore = ReturnType<typeof createAuthCore>;
