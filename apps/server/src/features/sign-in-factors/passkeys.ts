/**
 * Passkeys and security keys (issue 48, WebAuthn by `@simplewebauthn/server`): several per user, each named, as the
 * second step of signing in. Only the public key is kept, with the attestation the authenticator gave (its format
 * and model): EPCS will ask what kind of key signed. Each challenge is used once within five minutes; a signature
 * counter that does not go forward (a cloned key) is refused.
 */
import { type AddPasskey, PASSKEY_MESSAGES, type PasskeyAssertion, passkeyRegistrationSchema } from '@hcp/contract';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { AppError } from '../../lib/errors.ts';
import { type FactorContext, factorCommon, type SignInFactorDeps } from './common.ts';
import * as repo from './repository.ts';

/** Where a ceremony happens: the page's origin and the relying party's id (its host name). */
export interface Site {
  origin: string;
  rpID: string;
}

const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = 'HCP Portal';

const fromBase64url = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

/**
 * The key's new signature count when `assertion` is its signature over a challenge `take` accepts (once), with the
 * person verified; null for anything else (a forged or replayed answer, another site, no verification).
 */
async function verifyAssertion(
  key: { credentialId: string; publicKey: string; counter: number },
  assertion: PasskeyAssertion,
  site: Site,
  take: (challenge: string) => Promise<boolean>,
): Promise<number | null> {
  const verified = await verifyAuthenticationResponse({
    response: assertion,
    expectedChallenge: take,
    expectedOrigin: site.origin,
    expectedRPID: site.rpID,
    credential: { id: key.credentialId, publicKey: fromBase64url(key.publicKey), counter: key.counter },
    requireUserVerification: true,
  }).catch(() => null);
  return verified?.verified ? verified.authenticationInfo.newCounter : null;
}

export function passkeyUseCases(deps: SignInFactorDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const { audit, mailOwner, assertPassword, assertStillStrong } = factorCommon(deps);
  const remember = (userId: string | null, purpose: repo.ChallengePurpose, challenge: string) =>
    repo.insertPasskeyChallenge(db, { userId, purpose, challenge, expiresAt: new Date(now() + CHALLENGE_MS) });
  const refused = () =>
    new AppError('VALIDATION_FAILED', PASSKEY_MESSAGES.failed, [{ path: 'body.credential', message: PASSKEY_MESSAGES.failed }]);

  return {
    /** What the browser needs to make a new passkey for this account (a key it already has is excluded). */
    async registrationOptions(userId: string, site: Site) {
      const account = await repo.accountOf(db, userId);
      const existing = await repo.passkeysOf(db, userId);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: site.rpID,
        userName: account?.email ?? userId,
        userID: new TextEncoder().encode(userId),
        // The authenticator's attestation is kept (its model), for EPCS's "what kind of key" (21 CFR 1311.116).
        attestationType: 'direct',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      });
      await remember(userId, 'register', options.challenge);
      return options;
    },

    async addPasskey(userId: string, input: AddPasskey, site: Site, ctx: FactorContext) {
      const credential = passkeyRegistrationSchema.parse(input.credential);
      const verified = await verifyRegistrationResponse({
        response: credential,
        expectedChallenge: (challenge) => repo.takePasskeyChallenge(db, userId, 'register', challenge),
        expectedOrigin: site.origin,
        expectedRPID: site.rpID,
        requireUserVerification: true,
      }).catch(() => null);
      if (!verified?.verified) {
        await audit(db, userId, 'auth.factor.passkey.refused', ctx);
        throw refused();
      }
      const info = verified.registrationInfo;
      const name = input.name.trim();
      const deliver = await db.transaction(async (tx) => {
        const id = await repo.insertPasskey(tx, {
          userId,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: info.credential.counter,
          transports: info.credential.transports ?? [],
          name,
          attestationFormat: info.fmt,
          aaguid: info.aaguid,
          backedUp: info.credentialBackedUp,
        });
        if (!id) throw new AppError('CONFLICT', 'This passkey is already added.');
        await audit(tx, userId, 'auth.factor.passkey.added', ctx, { passkeyId: id, fmt: info.fmt, aaguid: info.aaguid });
        return mailOwner(
          tx,
          userId,
          'A passkey was added to your HCP Portal account',
          `A passkey named “${name}” was added to your HCP Portal account.`,
        );
      });
      await deliver();
    },

    async renamePasskey(userId: string, passkeyId: string, name: string, ctx: FactorContext) {
      if (!(await repo.renamePasskey(db, userId, passkeyId, name.trim()))) throw new AppError('NOT_FOUND', 'Passkey not found.');
      await audit(db, userId, 'auth.factor.passkey.renamed', ctx, { passkeyId });
    },

    async removePasskey(userId: string, passkeyId: string, currentPassword: string, ctx: FactorContext) {
      await assertPassword(userId, currentPassword);
      const deliver = await db.transaction(async (tx) => {
        const name = await repo.removePasskey(tx, userId, passkeyId);
        if (!name) throw new AppError('NOT_FOUND', 'Passkey not found.');
        await assertStillStrong(tx, userId);
        await audit(tx, userId, 'auth.factor.passkey.removed', ctx, { passkeyId });
        return mailOwner(
          tx,
          userId,
          'A passkey was removed from your HCP Portal account',
          `The passkey named “${name}” was removed from your HCP Portal account.`,
        );
      });
      await deliver();
    },

    hasPasskey: (userId: string) => repo.hasPasskey(db, userId),

    /**
     * What the browser needs to use one of this user's passkeys: the second step of signing in, or a step-up (EPCS
     * signing and approving, decision 0059) — each challenge is good only for its purpose.
     */
    async signInOptions(userId: string, site: Site, purpose: 'sign-in' | 'step-up' = 'sign-in') {
      const keys = await repo.passkeysOf(db, userId);
      const options = await generateAuthenticationOptions({
        rpID: site.rpID,
        allowCredentials: keys.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
        userVerification: 'required',
      });
      await remember(userId, purpose, options.challenge);
      return options;
    },

    /**
     * A sign-in by passkey alone (issue 48: "instead of the password", for whoever chooses it by using the button):
     * options without a user, for a key the authenticator keeps itself (a discoverable credential).
     */
    async loginOptions(site: Site) {
      const options = await generateAuthenticationOptions({ rpID: site.rpID, userVerification: 'required' });
      await remember(null, 'login', options.challenge);
      return options;
    },

    /**
     * The user a passkey alone signs in: its key signed an open login challenge, with the person verified (PIN,
     * fingerprint or face: two factors in one), and its counter went forward. Null otherwise.
     */
    async userOfPasskeyLogin(assertion: PasskeyAssertion, site: Site): Promise<string | null> {
      const key = await repo.passkeyByCredential(db, assertion.id);
      if (!key) return null;
      const counter = await verifyAssertion(key, assertion, site, (challenge) => repo.takeLoginChallenge(db, challenge));
      if (counter === null) return null;
      // The key says whose it is (userHandle, our user id as registered): it must be the owner on record.
      const handle = assertion.response.userHandle;
      if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== key.userId) return null;
      return (await repo.usePasskey(db, key.id, counter)) ? key.userId : null;
    },

    /** The second step by a passkey: true when one of the user's keys signed this sign-in's challenge, once. */
    async checkPasskey(userId: string, assertion: PasskeyAssertion, site: Site): Promise<boolean> {
      return (await this.verifiedPasskey(userId, assertion, site, 'sign-in')) !== null;
    },

    /**
     * The user's key that signed an open challenge of `purpose` (once, the person verified, its counter forward),
     * with what kind of key it is (EPCS records it); null for anything else.
     */
    async verifiedPasskey(userId: string, assertion: PasskeyAssertion, site: Site, purpose: 'sign-in' | 'step-up') {
      const key = (await repo.passkeysOf(db, userId)).find((p) => p.credentialId === assertion.id);
      if (!key) return null;
      const counter = await verifyAssertion(key, assertion, site, (challenge) =>
        repo.takePasskeyChallenge(db, userId, purpose, challenge),
      );
      if (counter === null || !(await repo.usePasskey(db, key.id, counter))) return null;
      return { passkeyId: key.id, attestationFormat: key.attestationFormat, aaguid: key.aaguid };
    },
  };
}
