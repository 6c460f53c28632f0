/** HCPs and staff of practices (spec §2 Manage Communications, §7); rules in docs/decisions/0015-manage-comms.md. */
import { z } from 'zod';
import { MD_STAFF_ROLES } from '../rules/roles.ts';
import { staffNpiProblem } from '../rules/staff.ts';
import { contactAddressInputSchema, contactAddressSchema } from './addresses.ts';
import { emailSchema, fullNameSchema, npiSchema, optionalField, pickedIdSchema, usPhoneSchema } from './fields.ts';
import { COMMUNICATION_MODES, EMAIL_OPT_MODES } from './practices.ts';
import { ref } from './references.ts';

export const mdStaffRoleSchema = z.enum(MD_STAFF_ROLES, { message: 'Choose a role.' });

export const mdStaffListRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  npi: z.string().nullable(),
  specialty: z.string().nullable(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  practiceNames: z.array(z.string()),
});
export type MdStaffListRecord = z.infer<typeof mdStaffListRecordSchema>;

export const mdStaffSearchResponseSchema = z.object({
  records: z.array(mdStaffListRecordSchema),
  total: z.number().int(),
});
export type MdStaffSearchResponse = z.infer<typeof mdStaffSearchResponseSchema>;

export const STAFF_EMPTY_MESSAGE = 'No HCPs or staff matching your search criteria.';
export const STAFF_SEARCH_PLACEHOLDER = 'Search by name, NPI, or Practice';

export const mdPartnerCommPrefsSchema = z.object({
  communicationMode: z.enum(COMMUNICATION_MODES, { message: 'Choose how this person is contacted.' }),
  emailOptIn: z.enum(EMAIL_OPT_MODES, { message: 'Choose whether to email this person.' }),
});
export type MdPartnerCommPrefs = z.infer<typeof mdPartnerCommPrefsSchema>;

const staffDetailsShape = {
  fullName: fullNameSchema,
  role: mdStaffRoleSchema,
  npi: optionalField(npiSchema),
  specialty: optionalField(z.string().trim().max(80, { message: 'Specialty is too long.' })),
  phoneNumber: optionalField(usPhoneSchema),
  faxNumber: optionalField(usPhoneSchema),
  email: optionalField(emailSchema),
};

/** A prescriber needs an NPI; office staff have none. */
const withNpiRule = <T extends { role: string; npi: string | null }>(value: T, ctx: z.RefinementCtx) => {
  const problem = staffNpiProblem(value.role, value.npi);
  if (problem) ctx.addIssue({ code: 'custom', path: ['npi'], message: problem });
};

/** The details of an HCP or staff member as the forms send them. */
export const mdStaffInputSchema = z.object(staffDetailsShape).superRefine(withNpiRule);
export type MdStaffInput = z.infer<typeof mdStaffInputSchema>;
export type MdStaffFormValues = z.input<typeof mdStaffInputSchema>;

/** PUT md-staff/{id}: the details, or only the contact addresses (each tab saves its own part). */
export const mdStaffUpdateSchema = z.union([
  mdStaffInputSchema,
  z.object({ contactAddresses: z.array(contactAddressInputSchema).max(10, { message: 'At most 10 addresses.' }) }),
]);
export type MdStaffUpdate = z.infer<typeof mdStaffUpdateSchema>;

/**
 * POST md-offices/{id}/staff: add an existing person to the practice, or create a new one in it — one of
 * the two (not a union: a union can hide the new person's field errors behind one message).
 */
export const addOfficeStaffSchema = z
  .object({
    mdStaffId: ref('hcp', pickedIdSchema('Choose an HCP or staff member.')).optional(),
    staff: mdStaffInputSchema.optional(),
  })
  .refine((body) => Boolean(body.mdStaffId) !== Boolean(body.staff), {
    message: 'Choose an existing person or describe a new one.',
  });
export type AddOfficeStaff = z.infer<typeof addOfficeStaffSchema>;

export const mdStaffSchema = z.object({
  id: z.string(),
  fullName: z.string(),
  role: z.string(),
  npi: z.string().nullable(),
  specialty: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  faxNumber: z.string().nullable(),
  email: z.string().nullable(),
  commPrefs: mdPartnerCommPrefsSchema,
  contactAddresses: z.array(contactAddressSchema),
  practices: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Whether the person has a portal sign-in (their e-mail then belongs to that account). */
  hasPortalAccount: z.boolean(),
});
export type MdStaff = z.infer<typeof mdStaffSchema>;

export const officeStaffListSchema = z.array(mdStaffListRecordSchema);
