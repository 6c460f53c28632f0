/** Chromium's virtual authenticator (DevTools protocol `WebAuthn`), for the passkey journeys: no mock. */
import type { BrowserContext, Page } from '@playwright/test';

/**
 * A platform authenticator with user verification, as a laptop's fingerprint reader or a phone is; it answers every
 * ceremony of `page` by itself. The session and the authenticator's id, to read its credentials.
 */
export async function addPlatformAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
