/** Patient <-> the portal's patient of a practice (`managingOrganization` names the practice). */
import type { Patient } from '@medplum/fhirtypes';
import { type BusinessIdentifier, businessIdentifier, fhirDateOf, meta, referencedId, unprocessable } from './common.ts';

export interface PatientFields {
  practiceId: string;
  firstName: string;
  lastName: string;
  dob: string;
  phoneNumbers: string[];
  address1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
}

export interface PatientRow extends PatientFields {
  id: string;
  updatedAt: Date;
  identifiers: BusinessIdentifier[];
}

const digits = (value: string) => value.replace(/\D/g, '');

/** What the portal keeps of a Patient, or a 422 naming the element our profile needs. */
export function fromPatient(resource: Patient): { identifier: BusinessIdentifier; fields: PatientFields } {
  const identifier = businessIdentifier(resource.identifier, 'Patient.identifier');
  const practiceId = referencedId(resource.managingOrganization, 'Organization', 'Patient.managingOrganization');
  const name = resource.name?.find((n) => n.use === 'official') ?? resource.name?.[0];
  const lastName = name?.family?.trim();
  const firstName = name?.given?.[0]?.trim();
  if (!lastName) unprocessable('Patient.name.family', 'Patient.name.family is required.');
  if (!firstName) unprocessable('Patient.name.given', 'Patient.name.given is required.');
  if (lastName.length > 100 || firstName.length > 100) unprocessable('Patient.name', 'Patient.name is too long.');
  if (!resource.birthDate) unprocessable('Patient.birthDate', 'Patient.birthDate must be a full date (YYYY-MM-DD).');
  fhirDateOf(resource.birthDate, 'date', 'Patient.birthDate');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(resource.birthDate)) {
    unprocessable('Patient.birthDate', 'Patient.birthDate must be a full date (YYYY-MM-DD).');
  }
  if (resource.birthDate > new Date().toISOString().slice(0, 10)) {
    unprocessable('Patient.birthDate', 'Patient.birthDate is in the future.');
  }
  const phoneNumbers = (resource.telecom ?? [])
    .filter((t) => t.system === 'phone' && t.value)
    .map((t) => digits(t.value as string));
  if (phoneNumbers.some((p) => p.length !== 10)) {
    unprocessable('Patient.telecom', 'Patient.telecom phone numbers must have 10 digits (US).');
  }
  const address = resource.address?.[0];
  return {
    identifier,
    fields: {
      practiceId,
      firstName,
      lastName,
      dob: resource.birthDate,
      phoneNumbers: [...new Set(phoneNumbers)].slice(0, 5),
      address1: address?.line?.[0]?.slice(0, 200) ?? null,
      city: address?.city?.slice(0, 100) ?? null,
      state: address?.state?.slice(0, 50) ?? null,
      zip: address?.postalCode?.slice(0, 20) ?? null,
    },
  };
}

export function toPatient(row: PatientRow): Patient {
  return {
    resourceType: 'Patient',
    id: row.id,
    meta: meta(row.updatedAt),
    identifier: row.identifiers.map(({ system, value }) => ({ system, value })),
    active: true,
    name: [{ use: 'official', family: row.lastName, given: [row.firstName] }],
    birthDate: row.dob,
    telecom: row.phoneNumbers.map((value, rank) => ({ system: 'phone' as const, value, rank: rank + 1 })),
    ...(row.city || row.address1
      ? {
          address: [
            {
              line: row.address1 ? [row.address1] : undefined,
              city: row.city ?? undefined,
              state: row.state ?? undefined,
              postalCode: row.zip ?? undefined,
              country: 'US',
            },
          ],
        }
      : {}),
    managingOrganization: { reference: `Organization/${row.practiceId}` },
  };
}
