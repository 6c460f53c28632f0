/**
 * Sign-in rules (DESIGN §6): argon2id passwords, lockout with back-off, MFA codes (6 digits, 10 minutes,
 * 5 tries), remember-me devices (30 days), rotating refresh tokens in families with reuse detection, and
 * logout that revokes the family and the access token. Every outcome lands in audit_log.
 */
import { randomUUID } from 'node:crypto';
import {
  type BrandKey,
  GOOGLE_MESSAGES,
  isBrandKey,
  type LoginRequest,
  type LoginResponse,
  loginBrandDecision,
  MFA_MESSAGES,
  MFA_RESEND,
  MFA_RESEND_MESSAGES,
  type MfaRequest,
  maskEmail,
  maskPhone,
  mfaCodeOf,
  PASSWORD_RESET_MESSAGES,
  type RefreshResponse,
  resolveBrand,
  type Tokens,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { hmac, randomToken, sha256, sixDigitCode } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { isFlagEnabled } from '../../lib/feature-flags.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
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

export interface AuthServiceDeps {
  db: Database;
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
function auditUser(
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

function mfaMail(to: string, code: string) {
  return {
    to,
    subject: 'Your HCP Portal verification code',
    text: `Your HCP Portal verification code is ${code}. It expires in 10 minutes. If you did not try to sign in, change your password.`,
    kind: 'mfa-code',
  };
}

export function lockSecondsAfter(failedLogins: number): number {
  if (failedLogins < AUTH_LIMITS.maxFailedLogins) return 0;
  const doublings = failedLogins - AUTH_LIMITS.maxFailedLogins;
  return Math.min(AUTH_LIMITS.lockBaseSeconds * 2 ** doublings, AUTH_LIMITS.lockMaxSeconds);
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, signer, denyList, mailer } = deps;
  // Verifying against a throwaway hash for unknown e-mails keeps their answer time like a real account's.
  const dummyHash = hashPassword(randomToken());

  async function issueTokens(user: { id: string; tenantId: string; role: string }, familyId = randomUUID()) {
    const refreshToken = randomToken();
    await repo.insertRefreshToken(db, {
      familyId,
      userId: user.id,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(Date.now() + deps.refreshTokenTtlSeconds * 1000),
    });
    const access = await signer.issue(user, familyId);
    return { accessToken: access.token, refreshToken, userID: user.id };
  }

  /** The brand of the sign-in request: forced by a dedicated hostname, else the main brand (contract rule). */
  async function requestBrand(hostname: string): Promise<BrandKey> {
    const brands = (await repo.allTenants(db)).filter((t): t is { key: BrandKey; hostnames: string[] } => isBrandKey(t.key));
    return resolveBrand({ hostname, brands, storedChoice: null, globalSetting: null }).brand;
  }

  async function login(input: LoginRequest, ctx: RequestContext): Promise<LoginResponse> {
    const email = input.email.trim().toLowerCase();
    const user = await repo.findUserForLogin(db, email);
    const audit = (action: string, details: Record<string, unknown> = {}) =>
      auditUser(db, user?.id ?? null, action, ctx, details);

    if (user?.lockedUntil && user.lockedUntil > new Date()) {
      await repo.recordLoginAttempt(db, email, ctx.ip, false);
      await audit('auth.login.failure', { reason: 'locked' });
      deps.signals?.signInFailed('locked');
      const retryAfter = Math.ceil((user.lockedUntil.getTime() - Date.now()) / 1000);
      throw new AppError(
        'RATE_LIMITED',
        `Too many failed sign-ins. Try again in ${Math.ceil(retryAfter / 60)} minute(s), or reset your password.`,
        [],
        { 'retry-after': String(retryAfter) },
      );
    }

    const passwordOk =
      user?.passwordHash && !user.disabledAt
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyPassword(await dummyHash, input.password).then(() => false);
    if (!user || !passwordOk) {
      await repo.recordLoginAttempt(db, email, ctx.ip, false);
      if (user) {
        const failed = user.failedLogins + 1;
        const lockSeconds = lockSecondsAfter(failed);
        await repo.setLoginFailures(db, user.id, failed, lockSeconds > 0 ? new Date(Date.now() + lockSeconds * 1000) : null);
        await audit('auth.login.failure', { reason: 'bad-password', failedLogins: failed, locked: lockSeconds > 0 });
        deps.signals?.signInFailed('bad-password');
        if (lockSeconds > 0) deps.signals?.lockedOut();
      } else {
        await audit('auth.login.failure', { reason: 'unknown-email' });
        deps.signals?.signInFailed('unknown-email');
      }
      throw new AppError('UNAUTHORIZED', LOGIN_FAILED_MESSAGE);
    }

    await repo.recordLoginAttempt(db, email, ctx.ip, true);
    if (user.failedLogins > 0 || user.lockedUntil) await repo.setLoginFailures(db, user.id, 0, null);
    return completeSignIn(user, ctx, input.rememberMeToken, 'password');
  }

  /** After the first factor (password or Google): the brand rule, then MFA unless the device is remembered. */
  async function completeSignIn(
    user: repo.LoginUser,
    ctx: RequestContext,
    rememberMeToken: string | undefined,
    method: 'password' | 'google',
  ): Promise<LoginResponse> {
    const audit = (action: string, details: Record<string, unknown> = {}) =>
      auditUser(db, user.id, action, ctx, { method, ...details });
    const brand = await requestBrand(ctx.hostname);
    const hasSecondBrandAccess = user.harrowPortalAccess === true && (await isFlagEnabled(db, 'isHarrowPortalEnabled'));
    const decision = loginBrandDecision({
      requestBrand: brand,
      userBrand: user.tenantKey === 'harrow' ? 'harrow' : 'main',
      hasSecondBrandAccess,
    });
    if (decision === 'redirect') {
      const tenant = await repo.tenantByKey(db, user.tenantKey);
      const host = tenant?.hostnames[0] ?? ctx.hostname;
      await audit('auth.login.redirected', { toBrand: user.tenantKey });
      return { redirectionUrl: `${ctx.origin.protocol}://${host}${ctx.origin.port ? `:${ctx.origin.port}` : ''}/login` };
    }

    if (user.mfaEnabled && !(await rememberedDevice(user.id, rememberMeToken))) {
      const challenge = await startMfa(user);
      await audit('auth.mfa.sent', { channel: 'email' });
      return { mfaResponse: { maskedEmail: maskEmail(user.email), maskedPhone: maskPhone(user.phone), userToken: challenge } };
    }

    const jwtToken = await issueTokens(user);
    await audit('auth.login.success', { mfa: user.mfaEnabled ? 'remembered-device' : 'off' });
    return { jwtToken };
  }

  /**
   * Google proves the e-mail address; the account must already exist (no self sign-up in a clinical
   * portal). The first Google sign-in binds the Google account id; a different one later is refused.
   */
  async function loginWithGoogle(idToken: string, rememberMeToken: string | undefined, ctx: RequestContext) {
    if (!deps.google.clientId) throw new AppError('NOT_FOUND', GOOGLE_MESSAGES.disabled);
    const identity = await deps.google.verify(idToken);
    if (!identity) {
      await auditUser(db, null, 'auth.google.failure', ctx, { reason: 'invalid-token' });
      throw new AppError('UNAUTHORIZED', GOOGLE_MESSAGES.invalid);
    }
    const user = await repo.findUserForLogin(db, identity.email);
    const boundElsewhere = user?.googleSubject != null && user.googleSubject !== identity.subject;
    if (!user || user.disabledAt || boundElsewhere) {
      await auditUser(db, user?.id ?? null, 'auth.google.failure', ctx, {
        reason: !user ? 'unknown-email' : boundElsewhere ? 'other-google-account' : 'disabled',
      });
      throw new AppError('UNAUTHORIZED', GOOGLE_MESSAGES.unknownUser);
    }
    if (user.googleSubject == null) await repo.setGoogleSubject(db, user.id, identity.subject);
    await repo.recordLoginAttempt(db, user.email, ctx.ip, true);
    return completeSignIn(user, ctx, rememberMeToken, 'google');
  }

  async function rememberedDevice(userId: string, token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const row = await repo.findRememberMe(db, sha256(token));
    return row !== null && row.userId === userId && row.expiresAt > new Date();
  }

  async function startMfa(user: repo.LoginUser): Promise<string> {
    const userToken = randomToken();
    const code = sixDigitCode();
    const id = randomUUID();
    const mail = mfaMail(user.email, code);
    const outboxId = await db.transaction(async (tx) => {
      await repo.insertMfaChallenge(tx, {
        id,
        userId: user.id,
        tokenHash: sha256(userToken),
        codeHash: hmac(deps.signingKey, `${id}:${code}`),
        expiresAt: new Date(Date.now() + AUTH_LIMITS.mfaCodeSeconds * 1000),
      });
      return mailer.enqueue(tx, mail);
    });
    await mailer.deliver(outboxId, mail);
    return userToken;
  }

  /** A new code for a live challenge, at most 3 times and 30 s apart; the old code stops working. */
  async function resendMfa(authToken: string, ctx: RequestContext): Promise<void> {
    const challenge = await repo.findMfaChallenge(db, sha256(authToken));
    const now = new Date();
    const refused = new AppError('UNAUTHORIZED', MFA_RESEND_MESSAGES.failed);
    // A challenge ends 10 minutes after its last code; after that only signing in again starts a new one.
    if (!challenge || challenge.consumedAt || challenge.expiresAt < now) throw refused;
    if (challenge.resends >= MFA_RESEND.maxResends) throw refused;
    const waitSeconds = Math.ceil(MFA_RESEND.minSecondsBetween - (now.getTime() - challenge.sentAt.getTime()) / 1000);
    if (waitSeconds > 0) {
      throw new AppError('RATE_LIMITED', `Please wait ${waitSeconds} seconds before asking for another code.`, [], {
        'retry-after': String(waitSeconds),
      });
    }
    const email = await repo.findUserEmail(db, challenge.userId);
    if (!email) throw refused;
    const code = sixDigitCode();
    const mail = mfaMail(email, code);
    const outboxId = await db.transaction(async (tx) => {
      const updated = await repo.resendMfaCode(tx, {
        id: challenge.id,
        codeHash: hmac(deps.signingKey, `${challenge.id}:${code}`),
        expiresAt: new Date(now.getTime() + AUTH_LIMITS.mfaCodeSeconds * 1000),
        sentAt: now,
        maxResends: MFA_RESEND.maxResends,
      });
      if (!updated) return null;
      await auditUser(tx, challenge.userId, 'auth.mfa.resent', ctx, { resends: challenge.resends + 1 });
      return mailer.enqueue(tx, mail);
    });
    if (!outboxId) throw refused;
    await mailer.deliver(outboxId, mail);
  }

  async function verifyMfa(input: MfaRequest, ctx: RequestContext): Promise<Tokens> {
    const challenge = await repo.findMfaChallenge(db, sha256(input.authToken));
    const expired = new AppError('UNAUTHORIZED', 'This verification code has expired. Sign in again to get a new code.');
    if (!challenge || challenge.consumedAt || challenge.expiresAt < new Date()) throw expired;
    const audit = (action: string, details: Record<string, unknown> = {}) =>
      auditUser(db, challenge.userId, action, ctx, details);

    if (hmac(deps.signingKey, `${challenge.id}:${mfaCodeOf(input)}`) !== challenge.codeHash) {
      const attempts = challenge.attempts + 1;
      await repo.countMfaFailure(db, challenge.id, attempts, attempts >= AUTH_LIMITS.mfaMaxAttempts);
      await audit('auth.mfa.failure', { attempts });
      deps.signals?.signInFailed('mfa');
      // Spec §8: the client turns 'not found' into 'Incorrect verification code.'
      throw new AppError('NOT_FOUND', MFA_MESSAGES.incorrect);
    }
    if (!(await repo.consumeMfaChallenge(db, challenge.id))) throw expired;
    const user = await repo.findUserById(db, challenge.userId);
    if (!user || user.disabledAt) throw expired;

    const tokens: Tokens = await issueTokens(user);
    if (input.rememberMe) {
      const rememberMeToken = randomToken();
      await repo.insertRememberMe(db, {
        userId: user.id,
        tokenHash: sha256(rememberMeToken),
        expiresAt: new Date(Date.now() + AUTH_LIMITS.rememberMeDays * 86_400_000),
      });
      tokens.rememberMeToken = rememberMeToken;
    }
    await audit('auth.mfa.success', { rememberDevice: input.rememberMe === true });
    await audit('auth.login.success', { mfa: 'code' });
    return tokens;
  }

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
    const access = await signer.issue(user, row.familyId);
    return { accessToken: access.token, refreshToken: rotated };
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

  /** Same answer whether or not the e-mail has an account (no enumeration); mails a 30-minute link. */
  async function requestPasswordReset(emailInput: string, ctx: RequestContext, publicOrigin: string): Promise<void> {
    const user = await repo.findUserForLogin(db, emailInput.trim().toLowerCase());
    if (!user || user.disabledAt || !user.passwordHash) {
      await auditUser(db, null, 'auth.reset.requested', ctx, { known: false });
      return;
    }
    const token = randomToken();
    const mail = {
      to: user.email,
      subject: 'Reset your HCP Portal password',
      text: `Someone asked to reset the password of your HCP Portal account. To choose a new password, open ${publicOrigin}/password-reset/${token} within 30 minutes. If it was not you, ignore this e-mail.`,
      kind: 'password-reset',
    };
    const outboxId = await db.transaction(async (tx) => {
      await repo.insertResetToken(tx, {
        userId: user.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + AUTH_LIMITS.resetTokenSeconds * 1000),
      });
      await auditUser(tx, user.id, 'auth.reset.requested', ctx, { known: true });
      return mailer.enqueue(tx, mail);
    });
    await mailer.deliver(outboxId, mail);
  }

  async function verifyResetToken(token: string): Promise<void> {
    if (!(await repo.findUsableResetToken(db, sha256(token)))) throw new AppError('GONE', PASSWORD_RESET_MESSAGES.expired);
  }

  /** Sets the password, uses the token once and ends every session; the next sign-in still asks for MFA. */
  async function resetPassword(token: string, password: string, ctx: RequestContext): Promise<void> {
    const row = await repo.findUsableResetToken(db, sha256(token));
    if (!row) throw new AppError('GONE', PASSWORD_RESET_MESSAGES.expired);
    const passwordHash = await hashPassword(password);
    const now = new Date();
    const families = await db.transaction(async (tx) => {
      if (!(await repo.useResetToken(tx, row.id))) return null;
      await repo.setPassword(tx, row.userId, passwordHash);
      const revoked = await repo.revokeAllFamiliesOfUser(tx, row.userId, now);
      const devicesForgotten = await repo.deleteRememberedDevices(tx, row.userId);
      await auditUser(tx, row.userId, 'auth.reset.completed', ctx, { sessionsEnded: revoked.length, devicesForgotten });
      return revoked;
    });
    if (!families) throw new AppError('GONE', PASSWORD_RESET_MESSAGES.expired);
    await denyFamilies(families, now);
  }

  /** A signed-in change needs the current password; the other sessions of the user end, this one stays. */
  async function changePassword(
    claims: { userId: string; familyId: string },
    currentPassword: string,
    newPassword: string,
    ctx: RequestContext,
  ): Promise<void> {
    const existing = await repo.findPasswordHash(db, claims.userId);
    if (!existing || !(await verifyPassword(existing, currentPassword))) {
      throw new AppError('VALIDATION_FAILED', PASSWORD_RESET_MESSAGES.currentIncorrect, [
        { path: 'body.currentPassword', message: PASSWORD_RESET_MESSAGES.currentIncorrect },
      ]);
    }
    const passwordHash = await hashPassword(newPassword);
    const now = new Date();
    const families = await db.transaction(async (tx) => {
      await repo.setPassword(tx, claims.userId, passwordHash);
      const revoked = await repo.revokeAllFamiliesOfUser(tx, claims.userId, now, claims.familyId);
      const devicesForgotten = await repo.deleteRememberedDevices(tx, claims.userId);
      await auditUser(tx, claims.userId, 'auth.password.changed', ctx, { sessionsEnded: revoked.length, devicesForgotten });
      return revoked;
    });
    await denyFamilies(families, now);
  }

  async function rememberedDevices(userId: string): Promise<number> {
    return repo.countRememberedDevices(db, userId, new Date());
  }

  /** "Forget remembered devices": every device, this one included, asks for a code at its next sign-in. */
  async function forgetRememberedDevices(userId: string, ctx: RequestContext): Promise<void> {
    await db.transaction(async (tx) => {
      const forgotten = await repo.deleteRememberedDevices(tx, userId);
      await auditUser(tx, userId, 'auth.devices.forgotten', ctx, { forgotten });
    });
  }

  /** Ends every session of a user at once (an account disabled by an admin). */
  async function endAllSessions(userId: string): Promise<void> {
    const now = new Date();
    await denyFamilies(await repo.revokeAllFamiliesOfUser(db, userId, now), now);
  }

  /**
   * Records, inside the caller's transaction, the invitation of a new account: a single-use link to choose a
   * password (the reset-token mechanism, valid for a week); returns the delivery to run after commit.
   */
  async function recordInvitation(
    tx: Executor,
    user: { id: string; email: string; displayName: string },
    publicOrigin: string,
  ): Promise<() => Promise<boolean>> {
    const token = randomToken();
    const mail = {
      to: user.email,
      subject: 'You are invited to the HCP Portal',
      text: `Hello ${user.displayName}, an administrator created an HCP Portal account for you. To choose your password, open ${publicOrigin}/password-reset/${token} within 7 days.`,
      kind: 'invitation',
    };
    await repo.insertResetToken(tx, {
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + AUTH_LIMITS.invitationSeconds * 1000),
    });
    const outboxId = await mailer.enqueue(tx, mail);
    return () => mailer.deliver(outboxId, mail);
  }

  /** "Reset two-step verification": forget remembered devices and pending codes; the next sign-in mails a new code. */
  async function resetTwoStep(tx: Executor, userId: string): Promise<{ devicesForgotten: number; codesCancelled: number }> {
    const devicesForgotten = await repo.deleteRememberedDevices(tx, userId);
    const codesCancelled = await repo.consumeOpenChallenges(tx, userId, new Date());
    return { devicesForgotten, codesCancelled };
  }

  return {
    endAllSessions,
    recordInvitation,
    resetTwoStep,
    login,
    loginWithGoogle,
    verifyMfa,
    resendMfa,
    refresh,
    logout,
    requestPasswordReset,
    verifyResetToken,
    resetPassword,
    changePassword,
    rememberedDevices,
    forgetRememberedDevices,
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
