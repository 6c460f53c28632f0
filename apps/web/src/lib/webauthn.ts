/**
 * The browser's side of passkeys (issue 48): `@simplewebauthn/browser`, loaded only when a passkey is made or used
 * (most visits do neither). Its errors are the browser's (NotAllowedError when the person cancels or nothing
 * answers): `passkeyFailure` turns them into the sentence to show.
 */
import { PASSKEY_MESSAGES } from '@hcp/contract';

const load = () => import('@simplewebauthn/browser');

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export async function createPasskey(optionsJSON: Record<string, unknown>) {
  const { startRegistration } = await load();
  return startRegistration({ optionsJSON: optionsJSON as never });
}

export async function signWithPasskey(optionsJSON: Record<string, unknown>) {
  const { startAuthentication } = await load();
  return startAuthentication({ optionsJSON: optionsJSON as never });
}

/** The sentence for a ceremony that did not finish: cancelled (or timed out), or refused. */
export function passkeyFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  return name === 'NotAllowedError' || name === 'AbortError' ? PASSKEY_MESSAGES.cancelled : PASSKEY_MESSAGES.failed;
}
