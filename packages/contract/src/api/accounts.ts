/** Manage Accounts (spec §2 /manage-accounts; calls of our design, docs/decisions/0017-manage-accounts.md). */
import { z } from 'zod';
import { USER_ROLE_VALUES } from '../rules/roles.ts';
import { emailSchema, fullNameSchema, optionalField, pickedIdSchema } from './fields.ts';
import { ref } from './references.ts';

export const USER_ROLE_LABELS: Record<(typeof USER_ROLE_VALUES)[number], string> = {
  'mdo.user': 'Office user',
  'provider.admin': 'Provider admin',
  'provider.sales': 'Provider sales',
};

export const accountSchema = z.object({
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLE_VALUES),
  mdOfficeId: z.string().nullable(),
  practiceName: z.string().nullable(),
  mfaEnabled: z.boolean(),
  disabled: z.boolean(),
  /** Invited and not signed up yet (no password chosen). */
  invited: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountSearchResponseSchema = z.object({ records: z.array(accountSchema), total: z.number().int() });
export type AccountSearchResponse = z.infer<typeof accountSearchResponseSchema>;

const officeRule = <T extends { role: string; mdOfficeId: string | null }>(value: T, ctx: z.RefinementCtx) => {
  if (value.role === 'mdo.user' && !value.mdOfficeId) {
    ctx.addIssue({ code: 'custom', path: ['mdOfficeId'], message: 'An office user belongs to a practice: choose one.' });
  }
};

/** POST accounts: invite someone; they choose their password from the mailed link. */
export const accountInviteSchema = z
  .object({
    userName: fullNameSchema,
    email: emailSchema,
    role: z.enum(USER_ROLE_VALUES, { message: 'Choose a role.' }),
    mdOfficeId: ref('practice', optionalField(pickedIdSchema('Choose a practice.'))),
  })
  .superRefine(officeRule);
export type AccountInvite = z.infer<typeof accountInviteSchema>;
export type AccountInviteFormValues = z.input<typeof accountInviteSchema>;

/** PUT accounts/{id}: role, two-step verification and whether the account may sign in. */
export const accountUpdateSchema = z.object({
  role: z.enum(USER_ROLE_VALUES, { message: 'Choose a role.' }),
  mfaEnabled: z.boolean(),
  disabled: z.boolean(),
});
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;

export const ACCOUNTS_EMPTY_MESSAGE = 'No accounts matching your search criteria.';
