import { describe, expect, it } from 'vitest';
import {
  clinicalAccess,
  mayTakeAction,
  needsPrescriberSignature,
  PRESCRIPTION_ACTIONS,
  SIGNATURE_ACTIONS,
  supportAccessOpenSchema,
} from '../src/index.ts';

const prescriber = { role: 'mdo.user', mdOfficeUser: { userType: 'mdo_user.prescriber', role: 'md' } };
const staff = { role: 'mdo.user', mdOfficeUser: { userType: 'mdo_user.staff', role: 'STAFF' } };
const admin = { role: 'provider.admin', mdOfficeUser: { userType: 'provider_admin', role: null } };
const sales = { role: 'provider.sales', mdOfficeUser: { userType: 'provider_sales', role: null } };

describe('clinical access (decision 0020)', () => {
  it('gives prescribers every action, staff all but the signature actions, the provider nothing', () => {
    expect(clinicalAccess(prescriber)).toBe('sign');
    expect(clinicalAccess(staff)).toBe('prepare');
    expect(clinicalAccess(admin)).toBe('none');
    expect(clinicalAccess(sales)).toBe('none');
    for (const action of PRESCRIPTION_ACTIONS) {
      expect(mayTakeAction('sign', action)).toBe(true);
      expect(mayTakeAction('prepare', action)).toBe(!(SIGNATURE_ACTIONS as readonly string[]).includes(action));
      expect(mayTakeAction('readOnly', action)).toBe(false);
      expect(mayTakeAction('none', action)).toBe(false);
    }
    expect(needsPrescriberSignature('refillAuthorizedErx')).toBe(true);
    expect(needsPrescriberSignature('refillPostponed')).toBe(false);
  });

  it('makes a support window read-only, and only for the provider’s users', () => {
    expect(clinicalAccess(admin, { supportAccessActive: true })).toBe('readOnly');
    expect(clinicalAccess(sales, { supportAccessActive: true })).toBe('readOnly');
    expect(clinicalAccess(staff, { supportAccessActive: true })).toBe('prepare');
  });

  it('asks a reason and at most an hour for a window', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(supportAccessOpenSchema.parse({ mdOfficeId: id, reason: 'Office called about a fax.' }).minutes).toBe(60);
    expect(supportAccessOpenSchema.safeParse({ mdOfficeId: id, reason: 'short' }).success).toBe(false);
    expect(supportAccessOpenSchema.safeParse({ mdOfficeId: id, reason: 'Office called about a fax.', minutes: 90 }).success).toBe(
      false,
    );
  });
});
