/** Two-step verification by a mailed code: start a challenge, send a new code, check a code (DESIGN §6). */
import { randomUUID } from 'node:crypto';
import {
  MFA_MESSAGES,
  MFA_RESEND,
  MFA_RESEND_MESSAGES,
  type MfaRequest,
  mfaCodeOf,
  SIGN_IN_POLICY_MESSAGES,
  type Tokens,
} from '@hcp/contract';
import { hmac, randomToken, sha256, sixDigitCode } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { signInPolicyOf } from '../../lib/sign-in-policy.ts';
import { AUTH_LIMITS, type AuthCore, type AuthServiceDeps, auditUser, passkeySiteOf, type RequestContext } from './core.ts';
import * as repo from './repository.ts';

function mfaMail(to: string, code: string) {
  return {
    to,
    subject: 'Your HCP Portal verification code',
    text: `Your HCP Portal verification code is ${code}. It expires in 10 minutes. If you did not try to sign in, change your password.`,
    kind: 'mfa-code',
  };
}

export function mfaUseCases(deps: AuthServiceDeps, core: AuthCore) {
  const { db, mailer } = deps;
  const { issueTokens } = core;

  /**
   * A challenge for the second step. `mail`: a code is mailed now; otherwise (an account with an authenticator app,
   * issue 48) none is until the user asks for one (resendMfa), so a mailbox is not a way around the app.
   */
  async function startMfa(user: repo.LoginUser, { mail: sendMail = true }: { mail?: boolean } = {}): Promise<string> {
    const userToken = randomToken();
    const code = sixDigitCode();
    const id = randomUUID();
    const mail = mfaMail(user.email, code);
    const outboxId = await db.transaction(async (tx) => {
      await repo.insertMfaChallenge(tx, {
        id,
        userId: user.id,
        tokenHash: sha256(userToken),
        codeHash: sendMail ? hmac(deps.signingKey, `${id}:${code}`) : null,
        expiresAt: new Date(Date.now() + AUTH_LIMITS.mfaCodeSeconds * 1000),
      });
      return sendMail ? mailer.enqueue(tx, mail) : null;
    });
    if (outboxId) await mailer.deliver(outboxId, mail);
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
    // The first mailed code of a challenge that began with the app is sent at once: it is the user's choice, not a resend.
    const firstMail = challenge.codeHash === null;
    const waitSeconds = firstMail
      ? 0
      : Math.ceil(MFA_RESEND.minSecondsBetween - (now.getTime() - challenge.sentAt.getTime()) / 1000);
    if (waitSeconds > 0) {
      throw new AppError('RATE_LIMITED', `Please wait ${waitSeconds} seconds before asking for another code.`, [], {
        'retry-after': String(waitSeconds),
      });
    }
    // A mailed code stands in for a strong factor only where the policy allows it (decision 0060).
    if (firstMail && !(await signInPolicyOf(db, challenge.userId)).emailCodesAllowed) {
      throw new AppError('FORBIDDEN', SIGN_IN_POLICY_MESSAGES.emailCodesOff);
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

    const method = input.method ?? 'email';
    if (!(await codeMatches(challenge, input, ctx))) {
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
    await audit('auth.mfa.success', { rememberDevice: input.rememberMe === true, method });
    await audit('auth.login.success', { mfa: method === 'email' ? 'code' : method });
    return tokens;
  }

  /** Whether the request's code is the challenge's: the mailed code, the app's current code, or a recovery code. */
  async function codeMatches(
    challenge: { id: string; userId: string; codeHash: string | null },
    input: MfaRequest,
    ctx: RequestContext,
  ): Promise<boolean> {
    switch (input.method ?? 'email') {
      case 'totp':
        return (await deps.factors?.checkAuthenticatorCode(challenge.userId, mfaCodeOf(input))) === true;
      case 'passkey':
        return (
          input.passkey !== undefined &&
          (await deps.factors?.checkPasskey(challenge.userId, input.passkey, passkeySiteOf(ctx))) === true
        );
      case 'recovery':
        return (
          (await deps.factors?.useRecoveryCode(challenge.userId, input.recoveryCode ?? '', {
            ip: ctx.ip,
            requestId: ctx.requestId,
          })) === true
        );
      default:
        return challenge.codeHash !== null && hmac(deps.signingKey, `${challenge.id}:${mfaCodeOf(input)}`) === challenge.codeHash;
    }
  }

  /** The browser's options for a passkey as this challenge's second step (issue 48). */
  async function passkeyOptions(authToken: string, ctx: RequestContext): Promise<unknown> {
    const challenge = await repo.findMfaChallenge(db, sha256(authToken));
    if (!challenge || challenge.consumedAt || challenge.expiresAt < new Date() || !deps.factors) {
      throw new AppError('UNAUTHORIZED', 'This sign-in has expired. Sign in again.');
    }
    return deps.factors.signInOptions(challenge.userId, passkeySiteOf(ctx));
  }

  return { startMfa, resendMfa, verifyMfa, passkeyOptions };
}
