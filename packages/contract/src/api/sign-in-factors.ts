/**
 * Second factors beyond a mailed code (issue 48): an authenticator app (TOTP, RFC 6238) and one-time recovery codes.
 * The rules both sides use: what a code looks like, how many recovery codes there are, and the texts of the screens.
 */
import { z } from 'zod';
import { passwordSchema } from './fields.ts';

/** How a sign-in's second step may be taken. */
export const MFA_METHODS = ['email', 'totp', 'recovery'] as const;
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

export const recoveryCodeSchema = z
  .string()
  .max(40)
  .refine((v) => normalizeRecoveryCode(v) !== null, { message: 'Enter a recovery code as shown, for example ABCDE-FGHJK.' });

/** A code from the app: six digits, spaces (as apps group them) ignored. */
export const totpCodeSchema = z
  .string()
  .max(20)
  .transform((v) => v.replace(/\s/g, ''))
  .refine((v) => /^\d{6}$/.test(v), { message: 'Enter the 6-digit code from your authenticator app.' });

export const signInFactorsSchema = z.object({
  /** The authenticator app, once a code from it was confirmed; null when none is. */
  authenticatorApp: z.object({ addedAt: z.string() }).nullable(),
  /** Unused recovery codes (0 when none were made, or all are used). */
  recoveryCodesLeft: z.number().int().min(0),
});
export type SignInFactors = z.infer<typeof signInFactorsSchema>;

/** What setting up an app needs: the secret as a QR code and as text, for an app that cannot scan. */
export const authenticatorSetupSchema = z.object({
  /** Base32, grouped by four for reading. */
  secret: z.string(),
  /** otpauth:// URI, what the QR code holds. */
  uri: z.string(),
  /** The QR code as an SVG document. */
  qrSvg: z.string(),
});
export type AuthenticatorSetup = z.infer<typeof authenticatorSetupSchema>;

export const confirmAuthenticatorSchema = z.object({ code: totpCodeSchema });
export type ConfirmAuthenticator = z.input<typeof confirmAuthenticatorSchema>;

/** Removing a factor or making new recovery codes asks for the password again (someone at an unlocked screen). */
export const reauthenticateSchema = z.object({ currentPassword: passwordSchema });
export type Reauthenticate = z.infer<typeof reauthenticateSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODES.count) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

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
};
