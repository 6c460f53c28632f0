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

/** Masks an e-mail for the verify screen: 'd*****n@demo.hcp'. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  if (local.length <= 2) return `${local.slice(0, 1)}*@${domain}`;
  return `${local[0]}${'*'.repeat(Math.min(local.length - 2, 6))}${local[local.length - 1]}@${domain}`;
}

/** Masks a phone number to its last four digits: '(***) ***-0110'; '' without a number. */
export function maskPhone(phone: string | null | undefined): string {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length >= 4 ? `(***) ***-${digits.slice(-4)}` : '';
}
