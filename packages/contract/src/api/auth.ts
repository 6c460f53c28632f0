/** Authentication payloads and answers (spec §3, §7 Authentication). */
import { z } from 'zod';
import { DASHBOARD } from '../routes.ts';
import { MFA_METHODS } from '../rules/sign-in-factors.ts';
import { emailSchema, newPasswordSchema, passwordSchema, tokenTextSchema } from './fields.ts';
import { ref, SELF_ID_MAX } from './references.ts';
import { passkeyAssertionSchema, recoveryCodeSchema } from './sign-in-factors.ts';

export const RESET_SOURCE = 'MD';

export const loginRequestSchema = z.object({
  email: emailSchema,
  /** The client sends the email here too (spec §3). */
  username: z.string().trim().max(254).optional(),
  password: passwordSchema,
  dashboard: z.literal(DASHBOARD),
  rememberMeToken: z.string().max(512).optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const tokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  userID: z.string(),
  rememberMeToken: z.string().optional(),
  /**
   * Our addition (issue 48, decision 0060): the user's practice or provider requires a passkey or an authenticator
   * app and the user has none: these tokens serve only to add one (every other call answers 403), then a refresh
   * gives full ones.
   */
  enrolmentRequired: z.literal(true).optional(),
});
export type Tokens = z.infer<typeof tokensSchema>;

export const mfaChallengeSchema = z.object({
  maskedEmail: z.string(),
  maskedPhone: z.string(),
  userToken: z.string(),
  /**
   * Issue 48: the ways this account may take the second step, the first the one to offer (absent: a mailed code,
   * as the spec's clients expect). With an authenticator app no mail is sent until the user asks for one.
   */
  methods: z.array(z.enum(MFA_METHODS)).optional(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** Exactly one of the three keys is present. */
export const loginResponseSchema = z.union([
  z.object({ jwtToken: tokensSchema }),
  z.object({ mfaResponse: mfaChallengeSchema }),
  z.object({ redirectionUrl: z.string().url() }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const legacyLoginResponseSchema = z.object({
  authToken: tokensSchema.pick({ accessToken: true, refreshToken: true, userID: true }).nullable(),
  maskedEmail: z.string().nullable(),
  maskedPhone: z.string().nullable(),
});
export type LegacyLoginResponse = z.infer<typeof legacyLoginResponseSchema>;

/** The six-digit code of the sign-in mail; spaces around it (pasted from a mail) do not count. */
export const mfaCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { message: 'Enter the 6-digit code.' });

/**
 * Spec §3: the code travels as mfaCode, which is 'the same as authCode' — either name is accepted. Issue 48: `method`
 * says whose code it is (the mailed one when absent); a recovery code travels as `recoveryCode`.
 */
export const mfaRequestSchema = z
  .object({
    authToken: tokenTextSchema.min(1),
    method: z.enum(MFA_METHODS).optional(),
    mfaCode: mfaCodeSchema.optional(),
    authCode: mfaCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    /** The browser's signed answer of the passkey (method 'passkey'). */
    passkey: passkeyAssertionSchema.optional(),
    dashboard: z.literal(DASHBOARD).optional(),
    rememberMe: z.boolean().optional(),
  })
  .refine((body) => (body.method === 'recovery' ? body.recoveryCode !== undefined : true), {
    message: 'Enter a recovery code as shown, for example ABCDE-FGHJK.',
    path: ['recoveryCode'],
  })
  .refine((body) => (body.method === 'passkey' ? body.passkey !== undefined : true), {
    message: 'Use your passkey.',
    path: ['passkey'],
  })
  .refine(
    (body) =>
      body.method === 'recovery' || body.method === 'passkey' || body.mfaCode !== undefined || body.authCode !== undefined,
    {
      message: 'Enter the 6-digit code.',
      path: ['mfaCode'],
    },
  );
export type MfaRequest = z.infer<typeof mfaRequestSchema>;

/** The code of a verify request, whichever of its two names it came under. */
export function mfaCodeOf(request: Pick<MfaRequest, 'mfaCode' | 'authCode'>): string {
  return request.mfaCode ?? request.authCode ?? '';
}

export const refreshRequestSchema = z.object({
  refreshToken: tokenTextSchema.min(1),
  dashboard: z.literal(DASHBOARD).optional(),
});
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

export const refreshResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  /** Our addition (decision 0060): still good only for adding a strong factor. */
  enrolmentRequired: z.literal(true).optional(),
});
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const logoutRequestSchema = z.object({
  /** The user signing out: only their own tokens are revoked (the tokens are the credential, not a session). */
  userId: ref('self', z.string().max(SELF_ID_MAX)),
  accessToken: tokenTextSchema,
  refreshToken: tokenTextSchema,
});
export type LogoutRequest = z.infer<typeof logoutRequestSchema>;

export const passwordResetRequestSchema = z.object({ email: emailSchema, source: z.literal(RESET_SOURCE) });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const updatePasswordByTokenSchema = z.object({ token: tokenTextSchema.min(1), password: newPasswordSchema });
export type UpdatePasswordByToken = z.infer<typeof updatePasswordByTokenSchema>;

/**
 * The "type it twice" rule of every new-password form (reset and signed-in change): refine a form schema with
 * `.refine(newPasswordRepeated.matches, newPasswordRepeated.issue)`.
 */
export const newPasswordRepeated = {
  matches: (v: { newPassword: string; confirm: string }) => v.newPassword === v.confirm,
  issue: { path: ['confirm'], message: 'The two passwords do not match.' },
};

export const changePasswordSchema = z.object({ currentPassword: passwordSchema, newPassword: newPasswordSchema });
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** Spec §8 texts for the verify screen. */
export const MFA_MESSAGES = {
  incorrect: 'Incorrect verification code.',
  failed: 'Could not verify code.',
} as const;

/** Spec §8: a 'not found' answer (404) means a wrong code; any other failure reads 'Could not verify code.' */
export function mfaFailureMessage(status: number): string {
  return status === 404 ? MFA_MESSAGES.incorrect : MFA_MESSAGES.failed;
}

/** Signing in by a passkey alone (issue 48): the browser's signed answer; the device's remember-me token as for a password. */
export const passkeyLoginRequestSchema = z.object({
  passkey: passkeyAssertionSchema,
  rememberMeToken: z.string().max(512).optional(),
});
export type PasskeyLoginRequest = z.infer<typeof passkeyLoginRequestSchema>;

/** The options a passkey sign-in's second step needs (issue 48): for the challenge of this user token. */
export const mfaPasskeyOptionsRequestSchema = z.object({ authToken: tokenTextSchema.min(1) });

/** A new code for the same challenge (the user token stays the same). */
export const mfaResendRequestSchema = z.object({ authToken: tokenTextSchema.min(1), dashboard: z.literal(DASHBOARD).optional() });
export type MfaResendRequest = z.infer<typeof mfaResendRequestSchema>;
export const MFA_RESEND = { maxResends: 3, minSecondsBetween: 30 } as const;
export const MFA_RESEND_MESSAGES = {
  sent: 'We sent a new code. Codes sent earlier no longer work.',
  failed: 'Could not send a new code. Sign in again to get one.',
} as const;

/** Body of the Google sign-in call (the ID token is in the path); the device's remember-me token skips MFA. */
export const googleLoginRequestSchema = z
  .object({ dashboard: z.literal(DASHBOARD).optional(), rememberMeToken: z.string().max(512).optional() })
  .default({});

/** What the login page needs before the user types anything. */
export const signInOptionsSchema = z.object({ googleClientId: z.string().nullable() });
export type SignInOptions = z.infer<typeof signInOptionsSchema>;

export const GOOGLE_MESSAGES = {
  unknownUser:
    'No HCP Portal account uses this Google address. Sign in with your e-mail and password, or ask your office administrator.',
  invalid: 'Google sign-in could not be verified. Please try again.',
  disabled: 'Google sign-in is not enabled for this portal.',
} as const;

/** Remembered devices of the signed-in user (they skip the MFA code for 30 days). */
export const rememberedDevicesSchema = z.object({ count: z.number().int().nonnegative() });
export type RememberedDevices = z.infer<typeof rememberedDevicesSchema>;

export const verifyPasswordTokenSchema = z.object({ token: z.string().min(1).max(512) });
export const statusOkSchema = z.object({ status: z.literal('ok') });

export const PASSWORD_RESET_MESSAGES = {
  requested: 'If an account exists for that e-mail, we have sent it a link to reset the password. The link works for 30 minutes.',
  expired: 'This reset link has expired or was already used.',
  changed: 'Your password has been changed. Sign in with your new password.',
  currentIncorrect: 'Current password is incorrect.',
} as const;
