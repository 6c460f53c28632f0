/**
 * Second factors beyond a mailed code (issue 48): the request and answer schemas of the authenticator app, recovery
 * codes and passkeys. Their rules and words, without zod, are in rules/sign-in-factors.ts.
 */
import { z } from 'zod';
import { normalizeRecoveryCode, PASSKEY_NAME_MAX, RECOVERY_CODES } from '../rules/sign-in-factors.ts';
import { passwordSchema } from './fields.ts';
import { notARecord, ref, refId, selfParamsSchema } from './references.ts';

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

/** What a person calls a passkey: 1-60 characters, trimmed. */
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
/** What the browser's answers to both ceremonies share: the credential's id, its type and attachment, extensions. */
const credentialJsonSchema = z.object({
  id: credentialId(),
  rawId: credentialId(),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResultsSchema.default({}),
});
export const passkeyRegistrationSchema = credentialJsonSchema.extend({
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

export const passkeyAssertionSchema = credentialJsonSchema.extend({
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

/** The tenant's sign-in policy (decision 0060), set by the provider's admin. */
export const tenantSignInPolicySchema = z.object({
  /** Every user must have a passkey or an authenticator app. */
  strongFactorRequired: z.boolean(),
  /** A mailed code may stand in for the strong factor at sign-in. */
  emailCodesAllowed: z.boolean(),
});
export type TenantSignInPolicy = z.infer<typeof tenantSignInPolicySchema>;

export const practiceSignInPolicyParamsSchema = z.object({ practiceId: refId('practice') });
export const practiceSignInPolicyInputSchema = z.object({ strongFactorRequired: z.boolean() });
export const practiceSignInPolicySchema = z.object({
  strongFactorRequired: z.boolean(),
  /** The provider requires it of everyone anyway. */
  requiredByProvider: z.boolean(),
  /** The caller may change it: a prescriber of the practice, or the provider's admin. */
  mayChange: z.boolean(),
});
export type PracticeSignInPolicy = z.infer<typeof practiceSignInPolicySchema>;
