/** Signing in with a password or Google, the brand rule, and the step to MFA unless the device is remembered. */
import {
  type BrandKey,
  GOOGLE_MESSAGES,
  isBrandKey,
  type LoginRequest,
  type LoginResponse,
  loginBrandDecision,
  maskEmail,
  maskPhone,
  PASSKEY_MESSAGES,
  type PasskeyAssertion,
  resolveBrand,
} from '@hcp/contract';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { isFlagEnabled } from '../../lib/feature-flags.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { mustEnrol, signInPolicyOf } from '../../lib/sign-in-policy.ts';
import {
  type AuthCore,
  type AuthServiceDeps,
  auditUser,
  LOGIN_FAILED_MESSAGE,
  lockSecondsAfter,
  passkeySiteOf,
  type RequestContext,
} from './core.ts';
import * as repo from './repository.ts';

export function signInUseCases(
  deps: AuthServiceDeps,
  core: AuthCore,
  mfa: { startMfa(user: repo.LoginUser, options?: { mail?: boolean }): Promise<string> },
) {
  const { db } = deps;
  const { issueTokens } = core;
  const { startMfa } = mfa;
  // Verifying against a throwaway hash for unknown e-mails keeps their answer time like a real account's.
  const dummyHash = hashPassword(randomToken());

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
    method: 'password' | 'google' | 'passkey',
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

    // A strong factor (a passkey, an authenticator app), once added, is asked for at every sign-in (issue 48), whatever
    // the mailed-code setting.
    const strong = (await deps.factors?.strongFactors(user.id)) ?? [];
    const hasApp = strong.length > 0;
    const policy = await signInPolicyOf(db, user.id);
    // Required to have a strong factor and has none (decision 0060): the mailed code is the bridge to adding one,
    // whatever the account's own setting, so a password alone never adds a factor.
    const enrolling = mustEnrol(policy);
    // A passkey alone is two factors already (the key, and the PIN, fingerprint or face it verified).
    const secondStepDone = method === 'passkey';
    if ((user.mfaEnabled || hasApp || enrolling) && !secondStepDone && !(await rememberedDevice(user.id, rememberMeToken))) {
      const challenge = await startMfa(user, { mail: !hasApp });
      await audit(hasApp ? 'auth.mfa.started' : 'auth.mfa.sent', { channel: hasApp ? strong[0] : 'email' });
      const masked = { maskedEmail: maskEmail(user.email), maskedPhone: maskPhone(user.phone), userToken: challenge };
      // The strong factors first (a passkey before the app), recovery codes when the app made them, then a mailed
      // code where the policy allows one.
      const methods = [
        ...strong,
        ...(strong.includes('totp') ? (['recovery'] as const) : []),
        ...(policy.emailCodesAllowed ? (['email'] as const) : []),
      ];
      return { mfaResponse: hasApp ? { ...masked, methods } : masked };
    }

    const jwtToken = await issueTokens(user);
    await audit('auth.login.success', {
      mfa: secondStepDone ? 'passkey' : user.mfaEnabled || hasApp ? 'remembered-device' : 'off',
    });
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

  /** Issue 48: the browser's options for signing in by a passkey alone (no e-mail, no password). */
  async function passkeyLoginOptions(ctx: RequestContext): Promise<unknown> {
    if (!deps.factors) throw new AppError('NOT_FOUND', 'Passkeys are not available.');
    return deps.factors.loginOptions(passkeySiteOf(ctx));
  }

  /** A passkey alone signs its owner in (a disabled or locked account is refused as a wrong password is). */
  async function loginWithPasskey(assertion: PasskeyAssertion, rememberMeToken: string | undefined, ctx: RequestContext) {
    const userId = deps.factors ? await deps.factors.userOfPasskeyLogin(assertion, passkeySiteOf(ctx)) : null;
    const user = userId ? await repo.findUserForLoginById(db, userId) : null;
    if (!user || user.disabledAt || (user.lockedUntil && user.lockedUntil > new Date())) {
      await auditUser(db, user?.id ?? null, 'auth.passkey.failure', ctx, { reason: !user ? 'unknown-or-unverified' : 'refused' });
      deps.signals?.signInFailed('mfa');
      throw new AppError('UNAUTHORIZED', PASSKEY_MESSAGES.failed);
    }
    await repo.recordLoginAttempt(db, user.email, ctx.ip, true);
    return completeSignIn(user, ctx, rememberMeToken, 'passkey');
  }

  async function rememberedDevice(userId: string, token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const row = await repo.findRememberMe(db, sha256(token));
    return row !== null && row.userId === userId && row.expiresAt > new Date();
  }

  return { login, loginWithGoogle, passkeyLoginOptions, loginWithPasskey };
}
