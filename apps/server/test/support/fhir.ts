/** A registered integration client and its access token, signed in through the real SMART token endpoint. */
import { CLIENT_ASSERTION_TYPE, NPI_SYSTEM, TASK_CODE_SYSTEM, TASK_INPUT_SYSTEM } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair } from 'jose';
import { expect } from 'vitest';
import { clientAssertion } from '../../../../scripts/smart-client.ts';
import { registerClient } from '../../src/features/integrations/clients.ts';
import type { TestApp } from './app.ts';

/**
 * A pharmacy system of the main tenant with every scope, and one of that tenant's prescriptions (its prescriber has
 * an NPI): what the FHIR suites start from.
 */
export async function mainTenantPharmacy(t: TestApp, publicUrl: string) {
  const tenants = await t.database.db.execute(sql`select id from tenants where key = 'main'`);
  const tenantId = (tenants as unknown as { rows: { id: string }[] }).rows[0]?.id as string;
  const { token } = await systemToken(t, { tenantId, scopes: ['system/*.*'], publicUrl });
  const found = await t.database.db.execute(sql`select rx.id, rx.patient_id as "patientId", rx.md_office_id as "practiceId",
      st.npi from prescriptions rx join md_staff st on st.id = rx.prescriber_id join md_offices o on o.id = rx.md_office_id
    where o.tenant_id = ${tenantId} and st.npi is not null limit 1`);
  const prescription = (found as unknown as { rows: { id: string; patientId: string; practiceId: string; npi: string }[] })
    .rows[0] as { id: string; patientId: string; practiceId: string; npi: string };
  return { token, tenantId, prescription };
}

/** A FHIR request as a pharmacy system with this token (`url` below /fhir/R4), the body sent as FHIR JSON. */
export const fhirAs = (
  t: TestApp,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url: `/fhir/R4${url}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json', ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

export async function systemToken(
  t: TestApp,
  options: { tenantId: string; scopes: string[]; scope?: string; publicUrl: string },
): Promise<{ token: string; clientId: string }> {
  const { privateKey, publicKey } = await generateKeyPair('ES384', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'ES384' };
  const client = await registerClient(t.database.db, {
    name: 'FHIR test',
    jwks: { keys: [jwk as never] },
    scopes: options.scopes,
    tenantId: options.tenantId,
    createdBy: null,
  });
  const res = await requestToken(t, {
    clientId: client.clientId,
    privateKey,
    publicUrl: options.publicUrl,
    scope: options.scope ?? options.scopes.join(' '),
  });
  expect(res.statusCode, res.body).toBe(200);
  return { token: res.json().access_token as string, clientId: client.clientId };
}

/** The SMART token request of a client whose key 'k' (ES384) signs the assertion; the answer as it came. */
export async function requestToken(
  t: TestApp,
  options: {
    clientId: string;
    privateKey: Parameters<typeof clientAssertion>[0]['privateKey'];
    publicUrl: string;
    scope: string;
  },
) {
  const assertion = await clientAssertion({
    tokenUrl: `${options.publicUrl}/oauth2/token`,
    clientId: options.clientId,
    kid: 'k',
    alg: 'ES384',
    privateKey: options.privateKey,
  });
  return t.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: assertion,
      scope: options.scope,
    }).toString(),
  });
}

// ---- valid resources of each written type (tests change them) ----

export const PT_SYSTEM = 'urn:pharmacy:patient';
export const RX_SYSTEM = 'urn:pharmacy:order';
export const TASK_SYSTEM = 'urn:pharmacy:task';

export const patient = (practiceId: string, id: string, overrides: Record<string, unknown> = {}) => ({
  resourceType: 'Patient',
  identifier: [{ system: PT_SYSTEM, value: id }],
  name: [{ family: 'Rivera', given: ['Ana'] }],
  birthDate: '1961-04-12',
  telecom: [{ system: 'phone', value: '(614) 555-0142' }],
  address: [{ line: ['12 Elm St'], city: 'Columbus', state: 'OH', postalCode: '43215' }],
  managingOrganization: { reference: `Organization/${practiceId}` },
  ...overrides,
});
export const medicationRequest = (npi: string, order: string, patientId: string, overrides: Record<string, unknown> = {}) => ({
  resourceType: 'MedicationRequest',
  identifier: [{ system: RX_SYSTEM, value: order }],
  status: 'active',
  intent: 'order',
  subject: { reference: `Patient/${patientId}` },
  requester: { identifier: { system: NPI_SYSTEM, value: npi } },
  medicationCodeableConcept: {
    text: 'Atorvastatin 20 mg tablet',
    coding: [{ system: 'http://hl7.org/fhir/sid/ndc', code: '0093-5057-98' }],
  },
  authoredOn: '2026-10-01T09:30:00Z',
  dosageInstruction: [{ text: 'Take 1 tablet daily' }],
  dispenseRequest: { numberOfRepeatsAllowed: 2, quantity: { value: 30 }, expectedSupplyDuration: { value: 30, unit: 'days' } },
  ...overrides,
});
export const task = (id: string, code: string, prescriptionId: string, overrides: Record<string, unknown> = {}) => ({
  resourceType: 'Task',
  identifier: [{ system: TASK_SYSTEM, value: id }],
  status: 'requested',
  intent: 'order',
  code: { coding: [{ system: TASK_CODE_SYSTEM, code }] },
  focus: { reference: `MedicationRequest/${prescriptionId}` },
  businessStatus: { text: 'Awaiting prescriber' },
  ...overrides,
});
export const input = (code: string, value: Record<string, string | number>) => ({
  type: { coding: [{ system: TASK_INPUT_SYSTEM, code }] },
  ...value,
});

/** Rows the FHIR write side can add: a refused write must leave every count as it was. */
export async function countFhirRows(t: TestApp) {
  const result = (await t.database.db.execute(sql`select
    (select count(*) from patients)::int as patients, (select count(*) from prescriptions)::int as prescriptions,
    (select count(*) from inbound_tasks)::int as tasks, (select count(*) from fhir_identifiers)::int as identifiers,
    (select count(*) from comments)::int as comments, (select count(*) from comment_mentions)::int as mentions`)) as unknown as {
    rows: Record<string, number>[];
  };
  return result.rows[0] as {
    patients: number;
    prescriptions: number;
    tasks: number;
    identifiers: number;
    comments: number;
    mentions: number;
  };
}

export const COMM_SYSTEM = 'urn:pharmacy:message';
export const communication = (id: string, patientId: string, overrides: Record<string, unknown> = {}) => ({
  resourceType: 'Communication',
  identifier: [{ system: COMM_SYSTEM, value: id }],
  status: 'completed',
  subject: { reference: `Patient/${patientId}` },
  sender: { reference: `Patient/${patientId}` },
  payload: [{ contentString: 'Can my refill be sent before Friday? I travel on Saturday.' }],
  ...overrides,
});
