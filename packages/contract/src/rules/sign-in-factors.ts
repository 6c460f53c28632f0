/**
 * Second factors beyond a mailed code (issue 48): the rules and words both sides use, without zod (the sign-in page
 * loads these; its first load carries no zod, issue 21). The request and answer schemas are in api/sign-in-factors.ts.
 */

/** How a sign-in's second step may be taken. */
export const MFA_METHODS = ['email', 'totp', 'recovery', 'passkey'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

/** RFC 6238 as every authenticator app reads it by default: 6 digits, 30-second steps, HMAC-SHA1. */
export const TOTP = { digits: 6, periodSeconds: 30, algorithm: 'SHA1', issuer: 'HCP Portal' } as const;

/** Ten recovery codes, each 10 characters of an alphabet without look-alikes, shown as two groups of five. */
export const RECOVERY_CODES = { count: 10, length: 10, alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' } as const;

/** A recovery code as typed: case, spaces and dashes do not count. Null when it cannot be one. */
export function normalizeRecoveryCode(text: string): string | null {
  const code = text.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== RECOVERY_CODES.length) return null;
  return [...code].every((c) => RECOVERY_CODES.alphabet.includes(c)) ? code : null;
}

/** A recovery code as shown: ABCDE-FGHJK. */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The longest name a passkey may have. */
export const PASSKEY_NAME_MAX = 60;

export const SIGN_IN_FACTOR_MESSAGES = {
  wrongCode: 'That code did not match. Check the time on your phone and enter the newest code.',
  noSetup: 'Start setting up the app again: the set-up was not found.',
  alreadyAdded: 'An authenticator app is already set up. Remove it first to set up another.',
  noApp: 'No authenticator app is set up.',
  added: 'Authenticator app added. Keep your recovery codes somewhere safe.',
  removed: 'Authenticator app removed. Sign-in codes come by e-mail again.',
  newCodes: 'New recovery codes made. The old ones no longer work.',
} as const;

/** The sign-in screen's words for each way of taking the second step. */
export const MFA_METHOD_TEXT: Record<MfaMethod, { prompt: string; label: string; switchTo: string }> = {
  email: {
    prompt: 'We sent a 6-digit code to your e-mail.',
    label: 'Verification code',
    switchTo: 'Send a code by e-mail instead',
  },
  totp: {
    prompt: 'Enter the 6-digit code from your authenticator app.',
    label: 'Code from your authenticator app',
    switchTo: 'Use your authenticator app',
  },
  recovery: {
    prompt: 'Enter one of your recovery codes. Each works once.',
    label: 'Recovery code',
    switchTo: 'Use a recovery code',
  },
  passkey: {
    prompt: 'Use your passkey or security key: your browser will ask for it.',
    label: 'Passkey',
    switchTo: 'Use a passkey or security key',
  },
};

export const PASSKEY_MESSAGES = {
  added: (name: string) => `Passkey “${name}” added.`,
  removed: (name: string) => `Passkey “${name}” removed.`,
  renamed: (name: string) => `Passkey renamed “${name}”.`,
  failed: 'The passkey could not be checked. Try again, or use another way to sign in.',
  cancelled: 'No passkey was used. Try again, or use another way to sign in.',
  unsupported: 'This browser cannot use passkeys.',
} as const;

/** A tenant's or practice's sign-in policy (issue 48, decision 0060), said the same on both sides. */
export const SIGN_IN_POLICY_MESSAGES = {
  enrolFirst: 'A passkey or an authenticator app is required for your account. Add one to continue.',
  lastFactor: 'A passkey or an authenticator app is required for your account: add another before removing this one.',
  emailCodesOff: 'Codes by e-mail are turned off: use your passkey, your authenticator app or a recovery code.',
  notPrescriber: 'Only a prescriber of the practice can change its sign-in policy.',
} as const;
