/**
 * The action-needed call's `actionType` values, on their own so the first load can name the whole list's
 * request (apps/web lib/early-requests.ts) without carrying the category rules beside them.
 */
export const ACTION_NEEDED_QUERY_TYPES = {
  all: 'ACTION_NEEDED_ALL',
  refillAuth: 'ACTION_NEEDED_REFILL_AUTH',
  priorAuth: 'ACTION_NEEDED_PRIOR_AUTH',
  phoneException: 'ACTION_NEEDED_PHONE_EXCEPTION',
  altMed: 'ACTION_NEEDED_ALT_MED',
  appeals: 'ACTION_NEEDED_APPEALS',
} as const;
export type ActionNeededQueryType = (typeof ACTION_NEEDED_QUERY_TYPES)[keyof typeof ACTION_NEEDED_QUERY_TYPES];
