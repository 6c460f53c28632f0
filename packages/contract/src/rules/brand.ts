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
