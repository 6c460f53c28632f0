/**
 * Zod-free checks of the answers the signed-in shell waits for (the user's details, the feature flags): the shell
 * used to wait for zod to download before it drew (issue 21, decision 0043). Apart from rules/answer-guards.ts so
 * the sign-in page does not carry them. Held to their schemas by property tests (test/answer-guards.test.ts).
 */
import type { FeatureFlags, UserDetails } from '../api/users.ts';
import { isRecord } from './answer-guards.ts';
import { isBrandKey } from './brand.ts';
import { PRESCRIBE_VIA_VALUES, USER_ROLE_VALUES } from './roles.ts';

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const oneOf = (values: readonly unknown[], value: unknown) => values.includes(value);

/** `featureFlagsSchema` without zod. */
export function isFeatureFlags(value: unknown): value is FeatureFlags {
  return isRecord(value) && isBoolean(value.isHarrowPortalEnabled) && isBoolean(value.isHcpPrescribingEnabled);
}

const isOfficeUser = (value: unknown) => isRecord(value) && isString(value.userType) && isStringOrNull(value.role);
const isOfficePrefs = (value: unknown) =>
  isRecord(value) &&
  (value.prescribeVia === null || oneOf(PRESCRIBE_VIA_VALUES, value.prescribeVia)) &&
  isBoolean(value.harrowPortalAccess) &&
  isBoolean(value.prescribingEnabled) &&
  isBoolean(value.notOnboarded);
const isUserPrefs = (value: unknown) =>
  isRecord(value) &&
  isBoolean(value.skipPriorAuthDismissNotice) &&
  isBoolean(value.skipErxConfirmation) &&
  isBoolean(value.skipSendConfirmation) &&
  isBoolean(value.newRequestNotices);
const isAccountManager = (value: unknown) =>
  isRecord(value) && isString(value.name) && isStringOrNull(value.phone) && isStringOrNull(value.email);
const isCover = (value: unknown) =>
  isRecord(value) &&
  isString(value.practiceId) &&
  isString(value.prescriberId) &&
  isString(value.startsAt) &&
  isString(value.endsAt);
const isSigning = (value: unknown) =>
  isRecord(value) &&
  Array.isArray(value.ownOrCoveringPracticeIds) &&
  value.ownOrCoveringPracticeIds.every(isString) &&
  Array.isArray(value.covers) &&
  value.covers.every(isCover);

/** `userDetailsSchema` without zod. */
export function isUserDetails(value: unknown): value is UserDetails {
  return (
    isRecord(value) &&
    isString(value.userId) &&
    isString(value.userName) &&
    isString(value.email) &&
    isStringOrNull(value.phoneNumber) &&
    oneOf(USER_ROLE_VALUES, value.role) &&
    (value.mdOfficeUser === null || isOfficeUser(value.mdOfficeUser)) &&
    (value.mdOfficePrefs === null || isOfficePrefs(value.mdOfficePrefs)) &&
    isUserPrefs(value.mdOfficeUserPrefs) &&
    isRecord(value.details) &&
    isStringOrNull(value.details.mdOfficeId) &&
    isStringOrNull(value.details.mdStaffId) &&
    isBoolean(value.isVAMPracticeUser) &&
    isBrandKey(value.brand) &&
    (value.accountManager === null || isAccountManager(value.accountManager)) &&
    (value.signing === undefined || value.signing === null || isSigning(value.signing))
  );
}
