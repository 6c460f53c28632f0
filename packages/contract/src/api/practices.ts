/** Practices (MD offices) and communication options (spec §3, §4, §7); write rules in docs/decisions/0015-manage-comms.md. */
import { z } from 'zod';
import { PAGE_SIZE } from '../rules/pagination.ts';
import { PRESCRIBE_VIA_VALUES } from '../rules/roles.ts';
import { emailSchema, optionalField, pickedIdSchema, singleLineSchema, stateSchema, usPhoneSchema, zipSchema } from './fields.ts';
import { ref } from './references.ts';

export const COMMUNICATION_MODES = ['email', 'fax', 'both', 'off'] as const;
export type CommunicationMode = (typeof COMMUNICATION_MODES)[number];
export const EMAIL_OPT_MODES = ['email', 'doNot'] as const;
export type EmailOptMode = (typeof EMAIL_OPT_MODES)[number];
/** The fourth PA option means the provider (pharmacy) will substitute. */
export const PA_HANDLING_OPTIONS = ['PAViaMDDash', 'DoNotDoPA', 'MDOWillSubstitute', 'ProviderWillSubstitute'] as const;
export type PaHandlingOption = (typeof PA_HANDLING_OPTIONS)[number];
export const REFILL_REQUEST_OPTIONS = ['eRx', 'Fax', 'DoNotAskForRefills', 'DoNotAskForRefillsOfficeWillContact'] as const;
export type RefillRequestOption = (typeof REFILL_REQUEST_OPTIONS)[number];

/** What a person reads for each option value (our wording; the spec names only the values). */
export const COMMUNICATION_MODE_LABELS: Record<CommunicationMode, string> = {
  email: 'Email',
  fax: 'Fax',
  both: 'Email and fax',
  off: 'Off (do not contact)',
};
export const EMAIL_OPT_LABELS: Record<EmailOptMode, string> = {
  email: 'Email me',
  doNot: 'Do not email',
};
export const PA_HANDLING_LABELS: Record<PaHandlingOption, string> = {
  PAViaMDDash: 'Office completes prior authorizations in the HCP Portal',
  DoNotDoPA: 'Office does not do prior authorizations',
  MDOWillSubstitute: 'Office will choose a substitute',
  ProviderWillSubstitute: 'Pharmacy may substitute',
};
export const REFILL_REQUEST_LABELS: Record<RefillRequestOption, string> = {
  eRx: 'Send refill requests by eRx',
  Fax: 'Send refill requests by fax',
  DoNotAskForRefills: 'Do not ask for refills',
  DoNotAskForRefillsOfficeWillContact: 'Do not ask for refills; the office will contact the patient',
};

export const mdOfficeListRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  email: z.string().nullable(),
  isKeyAccount: z.boolean(),
  mdOfficePrefs: z.object({ notOnboarded: z.boolean() }),
});
export type MdOfficeListRecord = z.infer<typeof mdOfficeListRecordSchema>;

export const pagedQuerySchema = z.object({
  searchText: z.string().trim().max(200).default(''),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
});
export type PagedQuery = z.infer<typeof pagedQuerySchema>;

export const mdOfficeSearchResponseSchema = z.object({
  records: z.array(mdOfficeListRecordSchema),
  total: z.number().int(),
});
export type MdOfficeSearchResponse = z.infer<typeof mdOfficeSearchResponseSchema>;

export const PRACTICES_EMPTY_MESSAGE = 'No practices matching your search criteria.';
export const PRACTICES_SEARCH_PLACEHOLDER = 'Search by HCP, NPI, or Practice';

/** Communication preferences of a practice (PUT md-offices/{id}/comm-prefs). */
export const mdOfficeCommPrefsSchema = z.object({
  communicationMode: z.enum(COMMUNICATION_MODES, { message: 'Choose how the practice is contacted.' }),
  paHandling: z.enum(PA_HANDLING_OPTIONS, { message: 'Choose how prior authorizations are handled.' }),
  refillRequestOption: z.enum(REFILL_REQUEST_OPTIONS, { message: 'Choose how refill requests are sent.' }),
  /** Onboarded is the inverse (spec §3). */
  notOnboarded: z.boolean(),
});
export type MdOfficeCommPrefs = z.infer<typeof mdOfficeCommPrefsSchema>;

export const practiceNameSchema = singleLineSchema(120, 'Practice name is too long.').pipe(
  z.string().min(2, { message: 'Enter the practice name.' }),
);
export const addressLineSchema = singleLineSchema(120, 'Keep the street address under 120 characters.').pipe(
  z.string().min(1, { message: 'Enter the street address.' }),
);
export const address2Schema = optionalField(singleLineSchema(120, 'Keep the second address line under 120 characters.'));
export const citySchema = singleLineSchema(80, 'Keep the city under 80 characters.').pipe(
  z.string().min(2, { message: 'Enter the city.' }),
);

/** Details of a practice as the create and edit forms send them (empty optional fields become null). */
export const mdOfficeInputSchema = z.object({
  name: practiceNameSchema,
  address1: addressLineSchema,
  address2: address2Schema,
  city: citySchema,
  state: stateSchema,
  zip: zipSchema,
  phoneNumber: usPhoneSchema,
  faxNumber: optionalField(usPhoneSchema),
  email: optionalField(emailSchema),
  isKeyAccount: z.boolean(),
  salesUserId: ref('user', optionalField(pickedIdSchema('Choose a sales representative.'))),
});
export type MdOfficeInput = z.infer<typeof mdOfficeInputSchema>;
export type MdOfficeFormValues = z.input<typeof mdOfficeInputSchema>;

export const mdOfficeSchema = z.object({
  id: z.string(),
  name: z.string(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  faxNumber: z.string().nullable(),
  email: z.string().nullable(),
  isKeyAccount: z.boolean(),
  salesUserId: z.string().nullable(),
  mdOfficePrefs: mdOfficeCommPrefsSchema.extend({
    prescribeVia: z.enum(PRESCRIBE_VIA_VALUES).nullable(),
    prescribingEnabled: z.boolean(),
    harrowPortalAccess: z.boolean(),
  }),
  /** What the signed-in user may do with it (the server decides; the screens follow). */
  canEdit: z.boolean(),
});
export type MdOffice = z.infer<typeof mdOfficeSchema>;

export const salesUserSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export const salesListSchema = z.array(salesUserSchema);
export type SalesUser = z.infer<typeof salesUserSchema>;

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type Deleted = z.infer<typeof deletedSchema>;

/** GET users/{id}/practices (our design): the practices a user acts for, for the practice-preference screens. */
export const myPracticeSchema = mdOfficeListRecordSchema.extend({
  mdOfficePrefs: mdOfficeCommPrefsSchema,
});
export const myPracticesSchema = z.array(myPracticeSchema);
export type MyPractice = z.infer<typeof myPracticeSchema>;
/** The practice-preference list shows at most this many practices (an office user has a handful). */
export const MY_PRACTICES_MAX = 100;
