/**
 * The one place where the portal's model and FHIR R4 meet (issue 19): practices are Organizations, HCPs are
 * Practitioners with their NPI. Pure functions, tested both ways as the write side arrives.
 */
export const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
/** Our own identifier of a practice, for pharmacies that keep it. */
export const PRACTICE_ID_SYSTEM = 'urn:hcp-portal:practice';

const meta = (updatedAt: Date) => ({ versionId: String(updatedAt.getTime()), lastUpdated: updatedAt.toISOString() });
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

/** `system|value` (or a bare value) of a FHIR token search parameter. */
export function parseToken(param: string): { system: string | null; value: string } {
  const bar = param.indexOf('|');
  return bar === -1 ? { system: null, value: param } : { system: param.slice(0, bar) || null, value: param.slice(bar + 1) };
}
