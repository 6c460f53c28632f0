/** The signed-in user's details, feature flags and tenant (spec §3). */
import { z } from 'zod';
import { PRESCRIBE_VIA_VALUES, USER_ROLE_VALUES } from '../rules/roles.ts';
import { fullNameSchema, optionalField, usPhoneSchema } from './fields.ts';

export const featureFlagsSchema = z.object({
  isHarrowPortalEnabled: z.boolean(),
  isHcpPrescribingEnabled: z.boolean(),
});
export type FeatureFlags = z.infer<typeof featureFlagsSchema>;

export const BRAND_KEYS = ['main', 'harrow'] as const;
export type BrandKey = (typeof BRAND_KEYS)[number];

export const tenantSchema = z.object({
  key: z.enum(BRAND_KEYS),
  name: z.string(),
  title: z.string(),
  colour: z.string().regex(/^#[0-9a-fA-F]{6}$/),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** GET /api/mdo/v1/tenant (public): the brand of this page and both brands (for the switch links). */
export const brandQuerySchema = z.object({ brand: z.string().max(20).optional() });
export const tenantResponseSchema = z.object({
  tenant: tenantSchema,
  /** On a brand's dedicated hostname the brand cannot be switched. */
  forced: z.boolean(),
  brands: z.array(tenantSchema),
  /**
   * The zone of the reports' days (the audit trail's and EPCS's; AUDIT_TIME_ZONE), an IANA name: a report screen's
   * "today" is this zone's today, not the browser's, or an administrator elsewhere asks for a day that has not begun.
   */
  reportTimeZone: z.string(),
});
export type TenantResponse = z.infer<typeof tenantResponseSchema>;

export const userDetailsSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string(),
  /** The user's own contact phone (their preferences), if given. */
  phoneNumber: z.string().nullable(),
  role: z.enum(USER_ROLE_VALUES),
  mdOfficeUser: z
    .object({
      userType: z.string(),
      /** MD, PA, NP, DO, ARNP or STAFF — the role of the person in the practice. */
      role: z.string().nullable(),
    })
    .nullable(),
  mdOfficePrefs: z
    .object({
      prescribeVia: z.enum(PRESCRIBE_VIA_VALUES).nullable(),
      harrowPortalAccess: z.boolean(),
      prescribingEnabled: z.boolean(),
      notOnboarded: z.boolean(),
    })
    .nullable(),
  mdOfficeUserPrefs: z.object({
    skipPriorAuthDismissNotice: z.boolean(),
    skipErxConfirmation: z.boolean(),
    /** Our addition (issue 21): no confirmation of what will be sent before a decision goes to the pharmacy. */
    skipSendConfirmation: z.boolean(),
    /** Our addition (issue 20): the user gets the practice's e-mail digest of new requests. */
    newRequestNotices: z.boolean(),
  }),
  /** mdStaffId (our addition): the user's own HCP record, e.g. to know which prescriptions they prescribed. */
  details: z.object({ mdOfficeId: z.string().nullable(), mdStaffId: z.string().nullable() }),
  isVAMPracticeUser: z.boolean(),
  /** Our addition (issue 49): a provider admin who reviews the audit trail. */
  privacyOfficer: z.boolean().optional(),
  /** Our additions: the brand (tenant) the user belongs to, and a VAM practice's dedicated account manager. */
  brand: z.enum(BRAND_KEYS),
  accountManager: z.object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable() }).nullable(),
  /**
   * Our addition (issue 23, rules/coverage.ts): what decides which requests a prescriber signs — the practices that
   * keep signing to each prescriber and whom this user covers. Null for users who do not sign.
   */
  signing: z
    .object({
      ownOrCoveringPracticeIds: z.array(z.string()),
      covers: z.array(z.object({ practiceId: z.string(), prescriberId: z.string(), startsAt: z.string(), endsAt: z.string() })),
    })
    .nullable()
    .optional(),
});
export type UserDetails = z.infer<typeof userDetailsSchema>;

/**
 * POST users/{id}/preferences: the signed-in user's own settings, sent whole (the /preferences form saves
 * them together); the answer is the updated user details.
 */
export const userPreferencesSchema = z.object({
  userName: fullNameSchema,
  phoneNumber: optionalField(usPhoneSchema),
  skipPriorAuthDismissNotice: z.boolean(),
  skipErxConfirmation: z.boolean(),
  /** Optional so that a client that does not know it leaves it as it is. */
  newRequestNotices: z.boolean().optional(),
  skipSendConfirmation: z.boolean().optional(),
});
export type UserPreferences = z.infer<typeof userPreferencesSchema>;
export type UserPreferencesFormValues = z.input<typeof userPreferencesSchema>;
