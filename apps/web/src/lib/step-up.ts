/**
 * Two factors at this moment, for EPCS (issue 48, decision 0059): approving a permission and signing a controlled
 * substance ask for the password and a hard token — a passkey or security key (a WebAuthn ceremony on a challenge
 * asked for this purpose) or a code from the authenticator app. Shared by the EPCS page and the refill page.
 */
import { type EpcsFactor, epcsApiPaths, passkeyOptionsSchema, type StepUp } from '@hcp/contract';
import { ApiError, api } from './api-client.ts';
import { failureText } from './form-errors.ts';
import { passkeyFailure, signWithPasskey } from './webauthn.ts';

/** What the person typed or chose; the passkey's answer is asked of the browser when they confirm. */
export interface StepUpEntry {
  currentPassword: string;
  method: EpcsFactor;
  totpCode: string;
}

/** The step-up the server checks: with a passkey, the browser's signed answer to a fresh step-up challenge. */
export async function completeStepUp(userId: string, entry: StepUpEntry): Promise<StepUp> {
  if (entry.method === 'totp') return { currentPassword: entry.currentPassword, totpCode: entry.totpCode };
  const { options } = await api.request(epcsApiPaths.stepUpOptions(userId), { method: 'POST', schema: passkeyOptionsSchema });
  const passkey = await signWithPasskey(options);
  return { currentPassword: entry.currentPassword, passkey: passkey as StepUp['passkey'] };
}

/** What is missing before a step-up can be sent (the password; the app's code when it is the factor), or null. */
export function stepUpEntryProblem(entry: StepUpEntry): string | null {
  return !entry.currentPassword || (entry.method === 'totp' && !entry.totpCode.trim())
    ? 'Enter your password and your second factor.'
    : null;
}

/** The sentence for a step-up that failed: the server's refusal, or the browser's passkey ceremony that did not finish. */
export const stepUpFailure = (error: unknown): string => (error instanceof ApiError ? failureText(error) : passkeyFailure(error));
