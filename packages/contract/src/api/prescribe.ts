/** Prescribe Rx (spec §1, §2, §6; calls of our design, docs/decisions/0018-prescribe.md). */
import { z } from 'zod';
import { PRESCRIBE_VIA_VALUES } from '../rules/roles.ts';
import { addressInputSchema } from './addresses.ts';
import { fullNameSchema, isoDateSchema, numberField, pickedIdSchema, usPhoneSchema } from './fields.ts';
import { ref } from './references.ts';

export const MAX_REFILLS = 11;
export const MAX_QUANTITY = 9999;
export const MAX_DAYS_SUPPLY = 365;

/** Sig shortcuts a prescriber picks from (then edits freely). */
export const COMMON_SIGS = [
  'Take 1 tablet by mouth once daily',
  'Take 1 tablet by mouth twice daily',
  'Take 1 capsule by mouth twice daily with meals',
  'Instill 1 drop in each eye twice daily',
  'Apply a thin layer to the affected area twice daily',
  'Use 1 spray in each nostril once daily',
] as const;

export const CONTROLLED_SUBSTANCE_MESSAGE =
  'A controlled substance is signed with EPCS: review and sign it, with your password and your passkey, security key or authenticator app.';

export const catalogueQuerySchema = z.object({
  searchText: z.string().trim().min(2, { message: 'Type at least 2 characters.' }).max(60),
});
export const catalogueProductSchema = z.object({
  id: z.string(),
  ndc: z.string(),
  name: z.string(),
  strength: z.string().nullable(),
  form: z.string().nullable(),
  manufacturer: z.string(),
  isControlled: z.boolean(),
});
export type CatalogueProduct = z.infer<typeof catalogueProductSchema>;
export const catalogueResponseSchema = z.array(catalogueProductSchema);

/** A patient new to the practice, added while prescribing. */
export const newPatientSchema = addressInputSchema.extend({
  fullName: fullNameSchema,
  dob: isoDateSchema,
  phoneNumber: usPhoneSchema,
});
export type NewPatient = z.infer<typeof newPatientSchema>;

export const prescriptionOrderSchema = z.object({
  productId: ref('product', pickedIdSchema('Choose a product.')),
  quantity: numberField(
    z
      .number({ message: 'Enter the quantity.' })
      .int({ message: 'Quantity is a whole number.' })
      .min(1, { message: 'Quantity is at least 1.' })
      .max(MAX_QUANTITY, { message: `Quantity is at most ${MAX_QUANTITY}.` }),
  ),
  daysSupply: numberField(
    z
      .number({ message: 'Enter the days supply.' })
      .int({ message: 'Days supply is a whole number.' })
      .min(1, { message: 'Days supply is at least 1.' })
      .max(MAX_DAYS_SUPPLY, { message: `Days supply is at most ${MAX_DAYS_SUPPLY}.` }),
  ),
  refills: numberField(
    z
      .number({ message: 'Enter the refills.' })
      .int({ message: 'Refills is a whole number.' })
      .min(0, { message: 'Refills cannot be negative.' })
      .max(MAX_REFILLS, { message: `At most ${MAX_REFILLS} refills.` }),
  ),
  sig: z.string().trim().min(3, { message: 'Write the directions (sig).' }).max(1000),
  /** False means dispense as written (no generic substitution). */
  substitutionAllowed: z.boolean(),
  notesToPharmacist: z.string().trim().max(1000).default(''),
});
export type PrescriptionOrder = z.infer<typeof prescriptionOrderSchema>;

/** POST users/{id}/prescriptions: an existing patient of the practice, or a new one. */
export const newPrescriptionSchema = z.object({
  // One of the two (not a union: a union would hide the new patient's field errors behind one message).
  patient: z
    .object({
      patientId: ref('patient', pickedIdSchema('Choose a patient.')).optional(),
      newPatient: newPatientSchema.optional(),
    })
    .refine((p) => Boolean(p.patientId) !== Boolean(p.newPatient), { message: 'Choose a patient or add a new one.' }),
  order: prescriptionOrderSchema,
});
export type NewPrescription = z.infer<typeof newPrescriptionSchema>;

export const createdPrescriptionSchema = z.object({
  prescriptionId: z.string(),
  patientId: z.string(),
  orderNumber: z.string(),
  sentVia: z.enum(PRESCRIBE_VIA_VALUES),
  drugName: z.string(),
});
export type CreatedPrescription = z.infer<typeof createdPrescriptionSchema>;

/** GET/PUT users/{id}/prescription-draft: whatever the form holds, kept for the prescriber across reloads. */
export const prescriptionDraftSchema = z.object({
  draft: z.record(z.string(), z.unknown()).nullable(),
  updatedAt: z.string().nullable(),
});
export type PrescriptionDraft = z.infer<typeof prescriptionDraftSchema>;
export const saveDraftSchema = z.object({ draft: z.record(z.string(), z.unknown()) });
