import { describe, expect, it } from 'vitest';
import {
  canManageAccounts,
  canManageCommunications,
  canPrescribe,
  hasSecondBrandAccess,
  isAdminUser,
  isMdoUser,
  isPrescriber,
  isPrescriberRole,
  isProviderUser,
  isVamPracticeUser,
  type RoleSubject,
  toPrescribeVia,
  userTypeSegment,
} from '../src/index.ts';

const prescriber: RoleSubject = {
  role: 'mdo.user',
  mdOfficeUser: { userType: 'mdo_user.prescriber', role: 'md' },
  mdOfficePrefs: { prescribingEnabled: true, harrowPortalAccess: true },
};
const staff: RoleSubject = { role: 'mdo.user', mdOfficeUser: { userType: 'mdo_user.staff', role: 'STAFF' } };
const admin: RoleSubject = { role: 'provider.admin', mdOfficeUser: null };
const sales: RoleSubject = { role: 'provider.sales', mdOfficeUser: null };
const flagsOn = { isHarrowPortalEnabled: true, isHcpPrescribingEnabled: true };

describe('roles', () => {
  it('prescriber roles are compared case-insensitively', () => {
    for (const role of ['MD', 'md', ' Pa ', 'np', 'Do', 'arnp']) expect(isPrescriberRole(role)).toBe(true);
    for (const role of ['STAFF', 'RN', '', null, undefined]) expect(isPrescriberRole(role)).toBe(false);
  });
  it('reads the user type from the first segment of the dotted string', () => {
    expect(userTypeSegment('mdo_user.prescriber')).toBe('mdo_user');
    expect(userTypeSegment('provider_admin')).toBe('provider_admin');
    expect(userTypeSegment(null)).toBe('');
    expect(isAdminUser({ role: 'mdo.user', mdOfficeUser: { userType: 'provider_admin.x', role: null } })).toBe(true);
  });
  it('prescribe-via is one of the fixed set, otherwise null', () => {
    expect(toPrescribeVia('eRx')).toBe('eRx');
    expect(toPrescribeVia('Fax')).toBe('Fax');
    expect(toPrescribeVia('email')).toBeNull();
    expect(toPrescribeVia(3)).toBeNull();
  });
  it('derives the user kinds', () => {
    expect(isPrescriber(prescriber)).toBe(true);
    expect(isPrescriber(staff)).toBe(false);
    expect(isMdoUser(staff)).toBe(true);
    expect(isProviderUser(admin)).toBe(true);
    expect(isProviderUser(sales)).toBe(true);
    expect(isProviderUser(staff)).toBe(false);
    expect(isVamPracticeUser({ ...staff, isVAMPracticeUser: true })).toBe(true);
    expect(isVamPracticeUser(staff)).toBe(false);
  });
  it('prescribing needs the prescriber role, the office setting and the flag', () => {
    expect(canPrescribe(prescriber, flagsOn)).toBe(true);
    expect(canPrescribe(prescriber, { ...flagsOn, isHcpPrescribingEnabled: false })).toBe(false);
    expect(canPrescribe({ ...prescriber, mdOfficePrefs: { prescribingEnabled: false } }, flagsOn)).toBe(false);
    expect(canPrescribe(staff, flagsOn)).toBe(false);
  });
  it('second-brand access needs the office preference and the flag', () => {
    expect(hasSecondBrandAccess(prescriber, flagsOn)).toBe(true);
    expect(hasSecondBrandAccess(prescriber, { ...flagsOn, isHarrowPortalEnabled: false })).toBe(false);
    expect(hasSecondBrandAccess(staff, flagsOn)).toBe(false);
  });
  it('manage accounts is for admins; manage communications for admin and sales', () => {
    expect(canManageAccounts(admin)).toBe(true);
    expect(canManageAccounts(sales)).toBe(false);
    expect(canManageCommunications(sales)).toBe(true);
    expect(canManageCommunications(prescriber)).toBe(false);
  });
});
