/**
 * Which portal a user may sign in to (our rule, docs/decisions/0009-sign-in.md): a user signs in on the
 * brand of their own tenant; a main-brand user may also sign in on the second brand when they have
 * second-brand access. Anyone else is sent to their own brand's portal (login answers redirectionUrl).
 */
import type { BrandKey } from '../api/users.ts';

export function loginBrandDecision(input: {
  requestBrand: BrandKey;
  userBrand: BrandKey;
  hasSecondBrandAccess: boolean;
}): 'allow' | 'redirect' {
  if (input.requestBrand === input.userBrand) return 'allow';
  if (input.requestBrand === 'harrow' && input.hasSecondBrandAccess) return 'allow';
  return 'redirect';
}

export const MAIN_BRAND: BrandKey = 'main';
export const SECOND_BRAND: BrandKey = 'harrow';

export function isBrandKey(value: unknown): value is BrandKey {
  return value === 'main' || value === 'harrow';
}

export interface BrandResolution {
  brand: BrandKey;
  /** True on a brand's dedicated hostname: nobody can switch away from it there. */
  forced: boolean;
}

/**
 * Which brand a page shows (spec §1): forced on a brand's dedicated hostnames; otherwise a stored brand
 * choice, otherwise the global setting, otherwise the main brand. Unknown values are ignored.
 */
export function resolveBrand(input: {
  hostname: string;
  brands: readonly { key: BrandKey; hostnames: readonly string[] }[];
  storedChoice: string | null | undefined;
  globalSetting: string | null | undefined;
}): BrandResolution {
  const host = input.hostname.trim().toLowerCase().replace(/\.$/, '');
  const forced = input.brands.find((b) => b.hostnames.some((h) => h.toLowerCase() === host));
  if (forced) return { brand: forced.key, forced: true };
  if (isBrandKey(input.storedChoice)) return { brand: input.storedChoice, forced: false };
  if (isBrandKey(input.globalSetting)) return { brand: input.globalSetting, forced: false };
  return { brand: MAIN_BRAND, forced: false };
}

/**
 * The brand a signed-in user sees: a second brand chosen (not forced) by someone without second-brand
 * access falls back to their own brand, so nobody reaches the second brand by editing local storage.
 */
export function effectiveBrand(
  resolution: BrandResolution,
  user: { userBrand: BrandKey; hasSecondBrandAccess: boolean } | null,
): BrandKey {
  if (!user || resolution.forced || resolution.brand === user.userBrand) return resolution.brand;
  if (resolution.brand === SECOND_BRAND && !user.hasSecondBrandAccess) return user.userBrand;
  return resolution.brand;
}

/** The brand-dependent header links of spec §2 for a signed-in user. */
export function brandHeaderLinks(input: {
  brand: BrandKey;
  forced: boolean;
  userBrand: BrandKey;
  hasSecondBrandAccess: boolean;
  isPrescriber: boolean;
  hcpPrescribingEnabled: boolean;
}): { access: boolean; backTo: boolean; prescribe: boolean } {
  const onSecondBrandDomain = input.forced && input.brand === SECOND_BRAND;
  return {
    // 'Access': main brand, the user has second-brand access, not on the second-brand domain.
    access: input.brand === MAIN_BRAND && input.hasSecondBrandAccess && !onSecondBrandDomain,
    // 'Back to': second brand, not on its own domain (and the user belongs to the main brand).
    backTo: input.brand === SECOND_BRAND && !input.forced && input.userBrand === MAIN_BRAND,
    // 'Prescribe Rx': prescribers, when HCP prescribing is enabled or on the second-brand domain.
    prescribe: input.isPrescriber && (input.hcpPrescribingEnabled || onSecondBrandDomain),
  };
}

/**
 * The tutorial opens by itself after sign-in unless the persistent do-not-show flag is set or it was
 * already closed in this session (spec §1, §4).
 */
export function shouldAutoOpenTutorial(input: { dismissedForever: boolean; closedThisSession: boolean }): boolean {
  return !input.dismissedForever && !input.closedThisSession;
}
