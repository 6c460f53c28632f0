/** Addresses, ZIP lookup and address verification (spec §7 zip-info, verify-address). */
import { z } from 'zod';
import { stateSchema, zipSchema } from './fields.ts';
import { address2Schema, addressLineSchema, citySchema } from './practices.ts';

export const ADDRESS_LABELS = ['Office', 'Mailing', 'Billing', 'Other'] as const;

export const addressInputSchema = z.object({
  address1: addressLineSchema,
  address2: address2Schema,
  city: citySchema,
  state: stateSchema,
  zip: zipSchema,
});
export type AddressInput = z.infer<typeof addressInputSchema>;

export const contactAddressInputSchema = addressInputSchema.extend({
  label: z.enum(ADDRESS_LABELS, { message: 'Choose what the address is for.' }),
});
export type ContactAddressInput = z.infer<typeof contactAddressInputSchema>;
export type ContactAddressFormValues = z.input<typeof contactAddressInputSchema>;

export const contactAddressSchema = contactAddressInputSchema.extend({
  address2: z.string().nullable(),
  /** The ZIP, city and state matched the ZIP table when it was saved. */
  verified: z.boolean(),
});
export type ContactAddress = z.infer<typeof contactAddressSchema>;

export const zipParamSchema = z.object({
  zip: z.string().regex(/^\d{5}$/, { message: 'Enter a 5-digit ZIP code.' }),
});
export const zipInfoSchema = z.object({ zip: z.string(), city: z.string(), state: z.string() });
export type ZipInfo = z.infer<typeof zipInfoSchema>;

export const addressVerificationSchema = z.object({
  verified: z.boolean(),
  /** The address as it should be stored (city and state from the ZIP table, tidy spacing). */
  address: addressInputSchema.extend({ address2: z.string().nullable() }),
  /** What did not match, per field, when not verified. */
  problems: z.array(z.object({ field: z.enum(['zip', 'city', 'state']), message: z.string() })),
});
export type AddressVerification = z.infer<typeof addressVerificationSchema>;
