/**
 * Address verification against the ZIP table (docs/decisions/0015-manage-comms.md): the ZIP must exist and
 * the city and state must be the ZIP's. We have no postal (USPS) service to ask, so the street line is only
 * tidied, not checked; the answer says what did not match and what the ZIP table suggests.
 */
import type { AddressInput, AddressVerification, ZipInfo } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { zipCodes } from '../db/schema.ts';

const tidy = (text: string) => text.trim().replace(/\s+/g, ' ');
const comparable = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

export async function findZip(db: Executor, zip: string): Promise<ZipInfo | null> {
  const rows = await db
    .select({ zip: zipCodes.zip, city: zipCodes.city, state: zipCodes.state })
    .from(zipCodes)
    .where(eq(zipCodes.zip, zip.slice(0, 5)))
    .limit(1);
  return rows[0] ?? null;
}

export async function verifyAddress(db: Executor, input: AddressInput): Promise<AddressVerification> {
  const address = {
    address1: tidy(input.address1),
    address2: input.address2 ? tidy(input.address2) : null,
    city: tidy(input.city),
    state: input.state,
    zip: input.zip.trim(),
  };
  const zip = await findZip(db, address.zip);
  if (!zip) {
    return {
      verified: false,
      address,
      problems: [{ field: 'zip', message: `ZIP code ${address.zip.slice(0, 5)} was not found.` }],
    };
  }
  const problems: AddressVerification['problems'] = [];
  if (zip.state !== address.state) problems.push({ field: 'state', message: `ZIP code ${zip.zip} is in ${zip.state}.` });
  if (comparable(zip.city) !== comparable(address.city)) {
    problems.push({ field: 'city', message: `ZIP code ${zip.zip} is in ${zip.city}.` });
  }
  return {
    verified: problems.length === 0,
    address: { ...address, city: problems.length === 0 ? address.city : zip.city, state: zip.state as AddressInput['state'] },
    problems,
  };
}
