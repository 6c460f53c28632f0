/** All Patients: search and detail (our design in the §7 style; spec §2 /patient-search and /patients/{id}). */
import { z } from 'zod';
import { PAGE_SIZE } from '../rules/pagination.ts';
import { PATIENT_SEARCH_MIN_LENGTH } from '../rules/patient-search.ts';
import { actionNeededPrescriptionSchema } from './prescriptions.ts';

export const patientSearchQuerySchema = z.object({
  searchText: z
    .string()
    .trim()
    .min(PATIENT_SEARCH_MIN_LENGTH, { message: `Type at least ${PATIENT_SEARCH_MIN_LENGTH} characters.` })
    .max(100, { message: 'Type at most 100 characters.' }),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
});
export type PatientSearchQuery = z.infer<typeof patientSearchQuerySchema>;

export const patientSearchRecordSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** YYYY-MM-DD */
  dob: z.string(),
  phoneNumbers: z.array(z.string()),
  practiceName: z.string(),
  /** How many of the patient's prescriptions need the user now (derived with the contract's rules). */
  actionNeededCount: z.number().int().nonnegative(),
});
export type PatientSearchRecord = z.infer<typeof patientSearchRecordSchema>;

export const patientSearchResponseSchema = z.object({
  records: z.array(patientSearchRecordSchema),
  total: z.number().int().nonnegative(),
});
export type PatientSearchResponse = z.infer<typeof patientSearchResponseSchema>;

export const patientDetailSchema = z.object({
  patient: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    dob: z.string(),
    phoneNumbers: z.array(z.string()),
    address1: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    practiceName: z.string(),
  }),
  /** Every prescription, newest first; the action fields read like the action-needed list (refills postponed to a later day are not due). */
  prescriptions: z.array(
    actionNeededPrescriptionSchema.extend({
      prescriberName: z.string(),
      prescriberRole: z.string(),
      refillPostponedUntil: z.string().nullable(),
    }),
  ),
});
export type PatientDetail = z.infer<typeof patientDetailSchema>;
