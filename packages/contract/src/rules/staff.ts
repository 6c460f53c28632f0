/** Rules about HCPs and staff (docs/decisions/0015-manage-comms.md). */
import { isPrescriberRole } from './roles.ts';

/** A prescriber needs an NPI; office staff have none. Returns the message to show, or null. */
export function staffNpiProblem(role: string, npi: string | null | undefined): string | null {
  if (isPrescriberRole(role) && !npi) return 'A prescriber needs an NPI.';
  if (!isPrescriberRole(role) && npi) return 'Office staff have no NPI; leave it empty.';
  return null;
}

/** Splits a full name into first name(s) and last name: the last word is the last name. */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const lastName = words.pop() ?? '';
  return { firstName: words.join(' '), lastName };
}

/** The reverse of splitFullName. */
export function joinFullName(firstName: string, lastName: string): string {
  return `${firstName} ${lastName}`.trim().replace(/\s+/g, ' ');
}
