/**
 * An authenticator app (TOTP, RFC 6238, by the `otpauth` library) and ten one-time recovery codes (issue 48, decision
 * 0058). Every change is audited and mailed to the account's owner (a change they did not make is how they learn of a
 * takeover); the mail names the change, never a code.
 */
import { randomInt } from 'node:crypto';
import {
  type AuthenticatorSetup,
  formatRecoveryCode,
  normalizeRecoveryCode,
  RECOVERY_CODES,
  SIGN_IN_FACTOR_MESSAGES,
  TOTP,
} from '@hcp/contract';
import { Secret, TOTP as Totp } from 'otpauth';
import { renderSVG } from 'uqr';
import type { Executor } from '../../db/client.ts';
import { hmac } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { createSealer } from '../../lib/sealed.ts';
import { type FactorContext, factorCommon, type SignInFactorDeps } from './common.ts';
import * as repo from './repository.ts';

/** How many steps either side of now a code may come from: a phone's clock a little off still signs in. */
const WINDOW_STEPS = 1;

const totpOf = (secret: string, label: string) =>
  new Totp({
    issuer: TOTP.issuer,
    label,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
    secret: Secret.fromBase32(secret),
  });

/** A recovery code: RECOVERY_CODES.length characters of its alphabet, each drawn by the CSPRNG. */
function newRecoveryCode(): string {
  const { alphabet, length } = RECOVERY_CODES;
  return Array.from({ length }, () => alphabet[randomInt(0, alphabet.length)]).join('');
}

export function authenticatorAppUseCases(deps: SignInFactorDeps) {
  const { db, signingKey } = deps;
  const now = deps.now ?? Date.now;
  const sealer = createSealer(signingKey, 'authenticator-app');
  const { audit, mailOwner, assertPassword, assertStillStrong } = factorCommon(deps);
  const codeHash = (userId: string, code: string) => hmac(signingKey, `recovery:${userId}:${code}`);

  /** The step a code of this secret was made in, within the window; null when it is none of them. */
  function stepOf(secret: string, code: string): number | null {
    const timestamp = now();
    const delta = totpOf(secret, '').validate({ token: code, timestamp, window: WINDOW_STEPS });
    return delta === null ? null : Math.floor(timestamp / 1000 / TOTP.periodSeconds) + delta;
  }

  /** Ten new codes, their hashes stored in `tx` (the old ones stop working); the codes as shown, once. */
  async function makeRecoveryCodes(tx: Executor, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES.count }, newRecoveryCode);
    await repo.replaceRecoveryCodes(
      tx,
      userId,
      codes.map((code) => codeHash(userId, code)),
    );
    return codes.map(formatRecoveryCode);
  }

  return {
    /** A new secret to scan (or type); not a factor until a code from it is confirmed. Starting again replaces it. */
    async setUpAuthenticator(userId: string, ctx: FactorContext): Promise<AuthenticatorSetup> {
      const email = (await repo.accountOf(db, userId))?.email ?? 'HCP Portal';
      const secret = new Secret({ size: 20 }).base32;
      if (!(await repo.startAuthenticator(db, userId, sealer.seal(secret)))) {
        throw new AppError('CONFLICT', SIGN_IN_FACTOR_MESSAGES.alreadyAdded);
      }
      await audit(db, userId, 'auth.factor.totp.setup-started', ctx);
      const uri = totpOf(secret, email).toString();
      return { secret: secret.replace(/(.{4})(?=.)/g, '$1 '), uri, qrSvg: renderSVG(uri) };
    },

    /** A code from the new app makes it the user's factor; the answer is the ten recovery codes, shown once. */
    async confirmAuthenticator(userId: string, code: string, ctx: FactorContext): Promise<string[]> {
      const app = await repo.authenticatorOf(db, userId);
      if (!app || app.confirmedAt)
        throw new AppError('CONFLICT', app ? SIGN_IN_FACTOR_MESSAGES.alreadyAdded : SIGN_IN_FACTOR_MESSAGES.noSetup);
      const secret = sealer.open(app.secretSealed);
      const step = secret ? stepOf(secret, code) : null;
      if (step === null) {
        await audit(db, userId, 'auth.factor.totp.setup-failed', ctx);
        throw new AppError('VALIDATION_FAILED', SIGN_IN_FACTOR_MESSAGES.wrongCode, [
          { path: 'body.code', message: SIGN_IN_FACTOR_MESSAGES.wrongCode },
        ]);
      }
      const { codes, deliver } = await db.transaction(async (tx) => {
        if (!(await repo.confirmAuthenticator(tx, userId, step))) throw new AppError('CONFLICT', SIGN_IN_FACTOR_MESSAGES.noSetup);
        const made = await makeRecoveryCodes(tx, userId);
        await audit(tx, userId, 'auth.factor.totp.added', ctx, { recoveryCodes: made.length });
        const send = await mailOwner(
          tx,
          userId,
          'An authenticator app was added to your HCP Portal account',
          'An authenticator app was added to your HCP Portal account, with new recovery codes. Sign-in codes now come from the app.',
        );
        return { codes: made, deliver: send };
      });
      await deliver();
      return codes;
    },

    /** With the current password: the app and the recovery codes go; sign-in codes come by e-mail again. */
    async removeAuthenticator(userId: string, currentPassword: string, ctx: FactorContext): Promise<void> {
      await assertPassword(userId, currentPassword);
      const deliver = await db.transaction(async (tx) => {
        if (!(await repo.removeAuthenticator(tx, userId))) throw new AppError('CONFLICT', SIGN_IN_FACTOR_MESSAGES.noApp);
        await assertStillStrong(tx, userId);
        // Recovery codes stand in for the app: without it they would be a second way in that nothing needs.
        await repo.replaceRecoveryCodes(tx, userId, []);
        await audit(tx, userId, 'auth.factor.totp.removed', ctx);
        return mailOwner(
          tx,
          userId,
          'The authenticator app was removed from your HCP Portal account',
          'The authenticator app was removed from your HCP Portal account and its recovery codes no longer work. Sign-in codes now come by e-mail.',
        );
      });
      await deliver();
    },

    /** With the current password: ten new recovery codes; every earlier one stops working. */
    async newRecoveryCodes(userId: string, currentPassword: string, ctx: FactorContext): Promise<string[]> {
      await assertPassword(userId, currentPassword);
      if (!(await repo.hasAuthenticator(db, userId))) throw new AppError('CONFLICT', SIGN_IN_FACTOR_MESSAGES.noApp);
      const { codes, deliver } = await db.transaction(async (tx) => {
        const made = await makeRecoveryCodes(tx, userId);
        await audit(tx, userId, 'auth.factor.recovery.renewed', ctx, { recoveryCodes: made.length });
        const send = await mailOwner(
          tx,
          userId,
          'New recovery codes for your HCP Portal account',
          'New recovery codes were made for your HCP Portal account. The earlier ones no longer work.',
        );
        return { codes: made, deliver: send };
      });
      await deliver();
      return codes;
    },

    /** Sign-in's second step by the app: true once per code (its step taken), false for any other code. */
    async checkAuthenticatorCode(userId: string, code: string): Promise<boolean> {
      const app = await repo.authenticatorOf(db, userId);
      const secret = app?.confirmedAt ? sealer.open(app.secretSealed) : null;
      const step = secret ? stepOf(secret, code) : null;
      return step !== null && (await repo.takeStep(db, userId, step));
    },

    /** Sign-in's second step by a recovery code: true once per code; its use is mailed and audited. */
    async useRecoveryCode(userId: string, text: string, ctx: FactorContext): Promise<boolean> {
      const code = normalizeRecoveryCode(text);
      if (!code) return false;
      const result = await db.transaction(async (tx) => {
        if (!(await repo.useRecoveryCode(tx, userId, codeHash(userId, code)))) return null;
        const left = await repo.recoveryCodesLeft(tx, userId);
        await audit(tx, userId, 'auth.factor.recovery.used', ctx, { left });
        return mailOwner(
          tx,
          userId,
          'A recovery code was used to sign in to your HCP Portal account',
          `A recovery code was used to sign in to your HCP Portal account. ${left} of ${RECOVERY_CODES.count} are left; make new ones in Preferences when few are.`,
        );
      });
      if (!result) return false;
      await result();
      return true;
    },
  };
}
