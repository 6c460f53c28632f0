/**
 * Sign-in rules (DESIGN §6): argon2id passwords, lockout with back-off, MFA codes (6 digits, 10 minutes,
 * 5 tries), remember-me devices (30 days), rotating refresh tokens in families with reuse detection, and
 * logout that revokes the family and the access token. Every outcome lands in audit_log.
 */
import { type AuthServiceDeps, createAuthCore } from './core.ts';
import { deviceUseCases } from './devices.ts';
import { mfaUseCases } from './mfa.ts';
import { passwordUseCases } from './password-changes.ts';
import { sessionUseCases } from './sessions.ts';
import { signInUseCases } from './sign-in.ts';

export {
  AUTH_LIMITS,
  type AuthServiceDeps,
  LOGIN_FAILED_MESSAGE,
  lockSecondsAfter,
  REFRESH_FAILED_MESSAGE,
  type RequestContext,
} from './core.ts';

/** Every sign-in use case behind one face, each in its own file of this folder (sign-in, MFA, sessions, passwords, devices). */
export function createAuthService(deps: AuthServiceDeps) {
  const core = createAuthCore(deps);
  const mfa = mfaUseCases(deps, core);
  return {
    ...signInUseCases(deps, core, mfa),
    verifyMfa: mfa.verifyMfa,
    resendMfa: mfa.resendMfa,
    passkeyOptions: mfa.passkeyOptions,
    ...sessionUseCases(deps, core),
    ...passwordUseCases(deps, core),
    ...deviceUseCases(deps),
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
