/** Roles and derived user kinds (spec §6). Permission details are ours: docs/decisions/0006-roles.md. */

export const PRESCRIBER_ROLES = ['MD', 'PA', 'NP', 'DO', 'ARNP'] as const;
export type PrescriberRole = (typeof PRESCRIBER_ROLES)[number];
export const STAFF_ROLE = 'STAFF';
export const MD_STAFF_ROLES = [...PRESCRIBER_ROLES, STAFF_ROLE] as const;
export type MdStaffRole = (typeof MD_STAFF_ROLES)[number];

/** Login roles: the medical-office user and the provider's (pharmacy's) admin and sales users. */
export const USER_ROLES = {
  mdoUser: 'mdo.user',
  providerAdmin: 'provider.admin',
  providerSales: 'provider.sales',
} as const;
export type UserRole = (typeof USER_ROLES)[keyof typeof USER_ROLES];
export const USER_ROLE_VALUES = Object.values(USER_ROLES) as [UserRole, ...UserRole[]];

/** First segment of the dotted user type (e.g. 'mdo_user.prescriber'). */
export const USER_TYPES = {
  mdoUser: 'mdo_user',
  providerAdmin: 'provider_admin',
} as const;

/** The fixed set of prescribe-via values; anything else reads as null. */
export const PRESCRIBE_VIA_VALUES = ['eRx', 'Fax'] as const;
export type PrescribeVia = (typeof PRESCRIBE_VIA_VALUES)[number];

export function isPrescriberRole(role: string | null | undefined): boolean {
  if (!role) return false;
  const upper = role.trim().toUpperCase();
  return (PRESCRIBER_ROLES as readonly string[]).includes(upper);
}

export function userTypeSegment(userType: string | null | undefined): string {
  return (userType ?? '').split('.')[0]?.trim().toLowerCase() ?? '';
}

export function toPrescribeVia(value: unknown): PrescribeVia | null {
  return typeof value === 'string' && (PRESCRIBE_VIA_VALUES as readonly string[]).includes(value)
    ? (value as PrescribeVia)
    : null;
}

/** What the role rules read of a user (a subset of the mdo-user-details answer). */
export interface RoleSubject {
  role: string;
  mdOfficeUser?: { userType?: string | null; role?: string | null } | null;
  isVAMPracticeUser?: boolean | null;
  mdOfficePrefs?: { prescribingEnabled?: boolean | null; harrowPortalAccess?: boolean | null } | null;
}

export function isProviderUser(user: RoleSubject): boolean {
  return (
    user.role === USER_ROLES.providerAdmin ||
    user.role === USER_ROLES.providerSales ||
    userTypeSegment(user.mdOfficeUser?.userType) === USER_TYPES.providerAdmin
  );
}

export function isAdminUser(user: RoleSubject): boolean {
  return user.role === USER_ROLES.providerAdmin || userTypeSegment(user.mdOfficeUser?.userType) === USER_TYPES.providerAdmin;
}

export function isSalesUser(user: RoleSubject): boolean {
  return user.role === USER_ROLES.providerSales;
}

export function isMdoUser(user: RoleSubject): boolean {
  return user.role === USER_ROLES.mdoUser || userTypeSegment(user.mdOfficeUser?.userType) === USER_TYPES.mdoUser;
}

export function isVamPracticeUser(user: RoleSubject): boolean {
  return user.isVAMPracticeUser === true;
}

export function isPrescriber(user: RoleSubject): boolean {
  return isMdoUser(user) && isPrescriberRole(user.mdOfficeUser?.role);
}

export interface FeatureFlagsLike {
  isHarrowPortalEnabled: boolean;
  isHcpPrescribingEnabled: boolean;
}

/** Prescribe Rx: a prescriber whose office enabled prescribing, with the feature flag on (spec §6). */
export function canPrescribe(user: RoleSubject, flags: FeatureFlagsLike): boolean {
  return isPrescriber(user) && user.mdOfficePrefs?.prescribingEnabled === true && flags.isHcpPrescribingEnabled;
}

/** The second-brand link needs both the office preference and the feature flag (spec §6). */
export function hasSecondBrandAccess(user: RoleSubject, flags: FeatureFlagsLike): boolean {
  return user.mdOfficePrefs?.harrowPortalAccess === true && flags.isHarrowPortalEnabled;
}

/** Manage Communications: the provider's admin and sales users (our rule, docs/decisions/0006-roles.md). */
export function canManageCommunications(user: RoleSubject): boolean {
  return isAdminUser(user) || isSalesUser(user);
}

export function canManageAccounts(user: RoleSubject): boolean {
  return isAdminUser(user);
}

/**
 * What a user may do in Manage Communications and the practice-preference screens (our rule,
 * docs/decisions/0015-manage-comms.md): the provider's admin and sales users manage every practice,
 * HCP and staff member of their tenant; an office user sees their own practices and edits only their
 * communication preferences; anyone else nothing.
 */
export type ManageCommsAccess = 'manage' | 'officePreferences' | 'none';
export function manageCommsAccess(user: RoleSubject): ManageCommsAccess {
  if (canManageCommunications(user)) return 'manage';
  if (isMdoUser(user)) return 'officePreferences';
  return 'none';
}
