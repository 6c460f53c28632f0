/**
 * Second factors beyond a mailed code (issue 48): an authenticator app (TOTP, RFC 6238) and one-time recovery codes.
 * The rules both sides use: what a code looks like, how many recovery codes there are, and the texts of the screens.
 */
import { z } from 'zod';
import { passwordSchema } from './fields.ts';
import { notARecord, ref, selfParamsSchema } from './references.ts';

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

/** A passkey or security key as its owner sees it: the name they gave it, when added and last used. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  addedAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Synced between the owner's devices (a phone's or a password manager's passkey), or bound to one key. */
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const signInFactorsSchema = z.object({
  /** The authenticator app, once a code from it was confirmed; null when none is. */
  authenticatorApp: z.object({ addedAt: z.string() }).nullable(),
  passkeys: z.array(passkeySchema),
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
  passkey: {
    prompt: 'Use your passkey or security key: your browser will ask for it.',
    label: 'Passkey',
    switchTo: 'Use a passkey or security key',
  },
};

/** What a person calls a passkey: 1-60 characters, trimmed. */
export const PASSKEY_NAME_MAX = 60;
export const passkeyNameSchema = z
  .string()
  .trim()
  .min(1, { message: 'Name the passkey, for example “Work laptop”.' })
  .max(PASSKEY_NAME_MAX, { message: `Use at most ${PASSKEY_NAME_MAX} characters.` });

/** The browser's WebAuthn answers as JSON (base64url fields), bounded: a credential is a few hundred bytes. */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, { message: 'Not base64url.' });
/** The authenticator's own credential id: names no record of ours (the key is found among the user's own). */
const credentialId = () => notARecord(b64url(1024), 'a WebAuthn credential id, the authenticator’s own');
const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const extensionResultsSchema = z
  .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
  .passthrough()
  .optional();
export const passkeyRegistrationSchema = z.object({
  id: credentialId(),
  rawId: credentialId(),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResultsSchema.default({}),
  response: z.object({
    clientDataJSON: b64url(8192),
    attestationObject: b64url(32768),
    authenticatorData: b64url(8192).optional(),
    publicKey: b64url(8192).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    transports: z.array(z.enum(TRANSPORTS)).max(TRANSPORTS.length).optional(),
  }),
});
export type PasskeyRegistration = z.infer<typeof passkeyRegistrationSchema>;

export const passkeyAssertionSchema = z.object({
  id: credentialId(),
  rawId: credentialId(),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResultsSchema.default({}),
  response: z.object({
    clientDataJSON: b64url(8192),
    authenticatorData: b64url(8192),
    signature: b64url(2048),
    userHandle: b64url(512).optional(),
  }),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

export const addPasskeySchema = z.object({ name: passkeyNameSchema, credential: passkeyRegistrationSchema });
export type AddPasskey = z.input<typeof addPasskeySchema>;
export const renamePasskeySchema = z.object({ name: passkeyNameSchema });
export const passkeyParamsSchema = selfParamsSchema.extend({ passkeyId: ref('passkey', z.string().max(64)) });

/** The browser's options for navigator.credentials (WebAuthn's JSON form), passed through as the server made them. */
export const passkeyOptionsSchema = z.object({ options: z.record(z.string(), z.unknown()) });

export const PASSKEY_MESSAGES = {
  added: (name: string) => `Passkey “${name}” added.`,
  removed: (name: string) => `Passkey “${name}” removed.`,
  renamed: (name: string) => `Passkey renamed “${name}”.`,
  failed: 'The passkey could not be checked. Try again, or use another way to sign in.',
  cancelled: 'No passkey was used. Try again, or use another way to sign in.',
  unsupported: 'This browser cannot use passkeys.',
} as const;
