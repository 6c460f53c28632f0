/**
 * Zod-free checks of the answers the signed-in shell waits for (the user's details, the feature flags): the shell
 * used to wait for zod to download before it drew (issue 21, decision 0043). Apart from rules/answer-guards.ts so
 * the sign-in page does not carry them. Held to their schemas by property tests (test/answer-guards.test.ts).
 */
import type { FeatureFlags, UserDetails } from '../api/users.ts';
import { isBrandKey } from './brand.ts';
import { arrayOf, fields, isBoolean, isString, oneOf, optional, orNull } from './guard-kit.ts';
import { PRESCRIBE_VIA_VALUES, USER_ROLE_VALUES } from './roles.ts';

const featureFlags = fields({ isHarrowPortalEnabled: isBoolean, isHcpPrescribingEnabled: isBoolean });

const userDetails = fields({
  userId: isString,
  userName: isString,
  email: isString,
  phoneNumber: orNull(isString),
  role: oneOf(USER_ROLE_VALUES),
  mdOfficeUser: orNull(fields({ userType: isString, role: orNull(isString) })),
  mdOfficePrefs: orNull(
    fields({
      prescribeVia: orNull(oneOf(PRESCRIBE_VIA_VALUES)),
      harrowPortalAccess: isBoolean,
      prescribingEnabled: isBoolean,
      notOnboarded: isBoolean,
    }),
  ),
  mdOfficeUserPrefs: fields({
    skipPriorAuthDismissNotice: isBoolean,
    skipErxConfirmation: isBoolean,
    skipSendConfirmation: isBoolean,
    newRequestNotices: isBoolean,
  }),
  details: fields({ mdOfficeId: orNull(isString), mdStaffId: orNull(isString) }),
  isVAMPracticeUser: isBoolean,
  brand: isBrandKey,
  accountManager: orNull(fields({ name: isString, phone: orNull(isString), email: orNull(isString) })),
  signing: optional(
    orNull(
      fields({
        ownOrCoveringPracticeIds: arrayOf(isString),
        covers: arrayOf(fields({ practiceId: isString, prescriberId: isString, startsAt: isString, endsAt: isString })),
      }),
    ),
  ),
});

/** `featureFlagsSchema` without zod. */
export function isFeatureFlags(value: unknown): value is FeatureFlags {
  return featureFlags(value);
}

/** `userDetailsSchema` without zod. */
export function isUserDetails(value: unknown): value is UserDetails {
  return userDetails(value);
}
