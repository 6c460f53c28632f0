/**
 * Phone numbers as people type and read them (spec §5). A module of its own: the signed-in header shows the support
 * number, and the first load should not carry every form check with it (decision 0046).
 */

export function phoneDigits(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** ddd.ddd.dddd for a ten-digit US number in any shape; anything else is returned unchanged. */
export function formatPhoneDisplay(value: string | null | undefined): string {
  if (!value) return '';
  const digits = phoneDigits(value);
  if (digits.length !== 10) return value;
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}`;
}

/** '(ddd) ddd-dddd', the shape the forms ask for; null when the value is not a ten-digit number. */
export function formatPhoneInput(value: string): string | null {
  const digits = phoneDigits(value);
  if (digits.length !== 10) return null;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
