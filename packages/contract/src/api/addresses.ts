/** Addresses, ZIP lookup and address verification (spec §7 zip-info, verify-address). */
import { z } from 'zod';
import { optionalField, stateSchema, zipSchema } from './fields.ts';

export const ADDRESS_LABELS = ['Office', 'Mailing', 'Billing', 'Other'] as const;

export const addressInputSchema = z.object({
  address1: z.string().trim().min(1, { message: 'Enter the street address.' }).max(120),
  address2: optionalField(z.string().trim().max(120)),
  city: z.string().trim().min(2, { message: 'Enter the city.' }).max(80),
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
