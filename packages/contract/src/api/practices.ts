/** Practices (MD offices) and communication options (spec §3, §4, §7). */
import { z } from 'zod';
import { PAGE_SIZE } from '../rules/pagination.ts';

export const COMMUNICATION_MODES = ['email', 'fax', 'both', 'off'] as const;
export const EMAIL_OPT_MODES = ['email', 'doNot'] as const;
/** The fourth PA option means the provider (pharmacy) will substitute. */
export const PA_HANDLING_OPTIONS = ['PAViaMDDash', 'DoNotDoPA', 'MDOWillSubstitute', 'ProviderWillSubstitute'] as const;
export const REFILL_REQUEST_OPTIONS = ['eRx', 'Fax', 'DoNotAskForRefills', 'DoNotAskForRefillsOfficeWillContact'] as const;

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
