/** Masked contact details for the MFA screen: enough to recognise, not enough to reuse. */

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
