/**
 * Sign-in factors beyond a mailed code (issue 48, decision 0058), behind one face: the authenticator app and recovery
 * codes (authenticator-app.ts), passkeys (passkeys.ts), what the account has, and an administrator's reset.
 */
import type { SignInFactors } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import { authenticatorAppUseCases } from './authenticator-app.ts';
import { factorCommon, type SignInFactorDeps } from './common.ts';
import { passkeyUseCases } from './passkeys.ts';
import { policyUseCases } from './policy.ts';
import * as repo from './repository.ts';

export type { FactorContext, SignInFactorDeps } from './common.ts';
export type { Site } from './passkeys.ts';

export function createSignInFactors(deps: SignInFactorDeps) {
  const { db } = deps;
  const { mailOwner } = factorCommon(deps);
  return {
    ...authenticatorAppUseCases(deps),
    ...passkeyUseCases(deps),
    ...policyUseCases(deps),

    async factors(userId: string): Promise<SignInFactors> {
      const [app, keys, left] = await Promise.all([
        repo.authenticatorOf(db, userId),
        repo.passkeysOf(db, userId),
        repo.recoveryCodesLeft(db, userId),
      ]);
      return {
        authenticatorApp: app?.confirmedAt ? { addedAt: app.confirmedAt.toISOString() } : null,
        passkeys: keys.map((p) => ({
          id: p.id,
          name: p.name,
          addedAt: p.createdAt.toISOString(),
          lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
          backedUp: p.backedUp,
        })),
        recoveryCodesLeft: left,
      };
    },

    /** Which strong factors the account has, in the order the sign-in offers them. */
    async strongFactors(userId: string): Promise<('passkey' | 'totp')[]> {
      const [passkey, app] = await Promise.all([repo.hasPasskey(db, userId), repo.hasAuthenticator(db, userId)]);
      return [...(passkey ? (['passkey'] as const) : []), ...(app ? (['totp'] as const) : [])];
    },

    /**
     * An administrator's reset (manage accounts, a lost phone or key), in its transaction: the app, its recovery codes
     * and every passkey go; null when there was nothing, else the owner's mail to send after commit.
     */
    async removeAllByAdministrator(tx: Executor, userId: string): Promise<(() => Promise<unknown>) | null> {
      const app = await repo.removeAuthenticator(tx, userId);
      const keys = await repo.removeAllPasskeys(tx, userId);
      if (!app && keys === 0) return null;
      await repo.replaceRecoveryCodes(tx, userId, []);
      return mailOwner(
        tx,
        userId,
        'Two-step sign-in was reset on your HCP Portal account',
        'An administrator reset two-step sign-in on your HCP Portal account: its authenticator app, passkeys and recovery codes no longer work. Sign-in codes now come by e-mail; you can add them again in Preferences.',
      );
    },
  };
}
export type SignInFactorService = ReturnType<typeof createSignInFactors>;
