/** The directory side of the mapping: practices are Organizations, HCPs are Practitioners with their NPI. */
import { NPI_SYSTEM, PRACTICE_ID_SYSTEM } from '@hcp/contract';
import { meta } from './common.ts';

const telecom = (entries: [string, string | null][]) =>
  entries.filter(([, value]) => value).map(([system, value]) => ({ system, value: value as string, use: 'work' as const }));

export interface PracticeRow {
  id: string;
  name: string;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  fax: string | null;
  email: string | null;
  updatedAt: Date;
}

export function toOrganization(row: PracticeRow) {
  return {
    resourceType: 'Organization' as const,
    id: row.id,
    meta: meta(row.updatedAt),
    identifier: [{ system: PRACTICE_ID_SYSTEM, value: row.id }],
    active: true,
    type: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'prov', display: 'Healthcare Provider' },
        ],
      },
    ],
    name: row.name,
    telecom: telecom([
      ['phone', row.phone],
      ['fax', row.fax],
      ['email', row.email],
    ]),
    address: row.city
      ? [
          {
            line: [row.address1, row.address2].filter((l): l is string => Boolean(l)),
            city: row.city,
            state: row.state ?? undefined,
            postalCode: row.zip ?? undefined,
            country: 'US',
          },
        ]
      : [],
  };
}

export interface StaffRow {
  id: string;
  firstName: string;
  lastName: string;
  npi: string | null;
  role: string;
  specialty: string | null;
  phone: string | null;
  fax: string | null;
  email: string | null;
  updatedAt: Date;
}

export function toPractitioner(row: StaffRow) {
  return {
    resourceType: 'Practitioner' as const,
    id: row.id,
    meta: meta(row.updatedAt),
    identifier: row.npi ? [{ system: NPI_SYSTEM, value: row.npi }] : [],
    active: true,
    name: [{ family: row.lastName, given: [row.firstName], ...(row.role !== 'STAFF' ? { suffix: [row.role] } : {}) }],
    telecom: telecom([
      ['phone', row.phone],
      ['fax', row.fax],
      ['email', row.email],
    ]),
    ...(row.specialty ? { qualification: [{ code: { text: row.specialty } }] } : {}),
  };
}

export interface RoleRow {
  practiceId: string;
  staffId: string;
  role: string;
  npi: string | null;
}

/** One HCP at one practice: prescribers (MD, PA, NP, DO, ARNP) may sign; office staff prepare. */
export function toPractitionerRole(row: RoleRow) {
  return {
    resourceType: 'PractitionerRole' as const,
    id: `${row.practiceId.slice(0, 8)}-${row.staffId}`,
    active: true,
    practitioner: { reference: `Practitioner/${row.staffId}` },
    organization: { reference: `Organization/${row.practiceId}` },
    ...(row.npi ? { identifier: [{ system: NPI_SYSTEM, value: row.npi }] } : {}),
    code: [
      {
        coding: [{ system: 'urn:hcp-portal:staff-role', code: row.role }],
        text: row.role === 'STAFF' ? 'Office staff' : `Prescriber (${row.role})`,
      },
    ],
  };
}
