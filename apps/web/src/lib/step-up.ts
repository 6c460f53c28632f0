/**
 * Two factors at this moment, for EPCS (issue 48, decision 0059): approving a permission and signing a controlled
 * substance ask for the password and a hard token — a passkey or security key (a WebAuthn ceremony on a challenge
 * asked for this purpose) or a code from the authenticator app. Shared by the EPCS page and the refill page.
 */
import { apiPaths, type EpcsFactor, passkeyOptionsSchema, type StepUp } from '@hcp/contract';
import { api } from './api-client.ts';
import { signWithPasskey } from './webauthn.ts';

/** What the person typed or chose; the passkey's answer is asked of the browser when they confirm. */
export interface StepUpEntry {
  currentPassword: string;
  method: EpcsFactor;
  totpCode: string;
}

/** The step-up the server checks: with a passkey, the browser's signed answer to a fresh step-up challenge. */
export async function completeStepUp(userId: string, entry: StepUpEntry): Promise<StepUp> {
  if (entry.method === 'totp') return { currentPassword: entry.currentPassword, totpCode: entry.totpCode };
  const { options } = await api.request(apiPaths.stepUpOptions(userId), { method: 'POST', schema: passkeyOptionsSchema });
  const passkey = await signWithPasskey(options);
  return { currentPassword: entry.currentPassword, passkey: passkey as StepUp['passkey'] };
}
