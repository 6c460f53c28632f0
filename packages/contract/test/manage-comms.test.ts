import { describe, expect, it } from 'vitest';
import {
  joinFullName,
  manageCommsAccess,
  mdOfficeInputSchema,
  mdStaffInputSchema,
  optionalField,
  splitFullName,
  staffNpiProblem,
  usPhoneSchema,
} from '../src/index.ts';

describe('manageCommsAccess', () => {
  it('lets the provider admin and sales users manage, office users see their practice preferences, nobody else', () => {
    expect(manageCommsAccess({ role: 'provider.admin' })).toBe('manage');
    expect(manageCommsAccess({ role: 'provider.sales' })).toBe('manage');
    expect(manageCommsAccess({ role: 'something', mdOfficeUser: { userType: 'provider_admin.ops' } })).toBe('manage');
    expect(manageCommsAccess({ role: 'mdo.user', mdOfficeUser: { userType: 'mdo_user.staff' } })).toBe('officePreferences');
    expect(manageCommsAccess({ role: 'patient' })).toBe('none');
  });
});

describe('staff rules', () => {
  it('needs an NPI for prescribers (any case) and none for staff', () => {
    expect(staffNpiProblem('MD', null)).toBe('A prescriber needs an NPI.');
    expect(staffNpiProblem('arnp', '')).toBe('A prescriber needs an NPI.');
    expect(staffNpiProblem('NP', '1234567893')).toBeNull();
    expect(staffNpiProblem('STAFF', '1234567893')).toBe('Office staff have no NPI; leave it empty.');
    expect(staffNpiProblem('STAFF', null)).toBeNull();
  });

  it('splits a full name at the last word and joins it back', () => {
    expect(splitFullName('  Mary  Ann Smith ')).toEqual({ firstName: 'Mary Ann', lastName: 'Smith' });
    expect(joinFullName('Mary Ann', 'Smith')).toBe('Mary Ann Smith');
    expect(joinFullName(...(Object.values(splitFullName('Jo Li')) as [string, string]))).toBe('Jo Li');
  });

  it('reports the NPI rule on the npi field of the staff form', () => {
    const result = mdStaffInputSchema.safeParse({ fullName: 'Rosa Delgado', role: 'MD', npi: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['npi'], message: 'A prescriber needs an NPI.' })]);
  });
});

describe('optionalField', () => {
  const schema = optionalField(usPhoneSchema);
  it('reads blank, missing and null as null, and checks anything else with its message', () => {
    expect(schema.parse('')).toBeNull();
    expect(schema.parse('   ')).toBeNull();
    expect(schema.parse(null)).toBeNull();
    expect(schema.parse(undefined)).toBeNull();
    expect(schema.parse(' (614) 555-0100 ')).toBe('(614) 555-0100');
    expect(schema.safeParse('614').error?.issues[0]?.message).toBe('Enter a phone number as (555) 555-5555.');
  });

  it('lets a practice leave fax, email, second line and sales user empty', () => {
    const parsed = mdOfficeInputSchema.parse({
      name: 'Lake Clinic',
      address1: '1 Main St',
      address2: '',
      city: 'Columbus',
      state: 'OH',
      zip: '43215',
      phoneNumber: '(614) 555-0100',
      faxNumber: '',
      email: '',
      isKeyAccount: false,
      salesUserId: '',
    });
    expect(parsed).toMatchObject({ address2: null, faxNumber: null, email: null, salesUserId: null });
  });
});
