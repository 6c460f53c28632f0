/**
 * Audit rows in the reports' words (the contract's meanings and channels), and the two export forms: CSV for a
 * spreadsheet (formula characters neutralised) and a FHIR R4 Bundle of AuditEvent resources, which health-record
 * auditors and SIEMs read (DICOM/IHE audit vocabulary: rest operations, the user as requestor, the patient as entity).
 */
import {
  AUDIT_CHANNEL_LABELS,
  AUDIT_HIDDEN_PATIENT,
  type AuditEntry,
  auditActionMeaning,
  auditChannelOf,
  csvLine,
  isPrescriberRole,
} from '@hcp/contract';
import type { EntryRow } from './repository.ts';

/** An instant as the API writes it (the database answers a Date or text, by engine). */
export const iso = (value: Date | string) => new Date(value).toISOString();

function roleOf(row: EntryRow): string | null {
  if (row.actor_id === null) return row.client_id ? 'Pharmacy system' : 'System';
  if (row.actor_login_role === 'provider.admin') return 'Provider admin';
  if (row.actor_login_role === 'provider.sales') return 'Sales';
  if (isPrescriberRole(row.actor_staff_role)) return (row.actor_staff_role ?? '').toUpperCase();
  return 'Staff';
}

export function entryOf(row: EntryRow, withPatients: boolean): AuditEntry {
  const meaning = auditActionMeaning(row.action);
  return {
    id: row.id,
    at: iso(row.at),
    actor: {
      userId: row.actor_id,
      name: row.actor_name ?? row.client_name ?? null,
      role: roleOf(row),
      practice: row.actor_practice,
    },
    action: row.action,
    description: meaning.description,
    outcome: meaning.refused ? 'refused' : 'success',
    channel: auditChannelOf({
      actorRole: row.actor_id === null ? null : row.actor_login_role,
      action: row.action,
      details: { clientId: row.client_id ?? undefined, via: row.via ?? undefined },
    }),
    ip: row.ip,
    requestId: row.request_id,
    ...(withPatients ? { patients: row.patients ?? [] } : {}),
  };
}

const CSV_HEADER = ['When (UTC)', 'Who', 'Role', 'Practice', 'What', 'Outcome', 'Path', 'IP address', 'Request id'];

/** The report as CSV; `patientColumn` adds the patients of each row (the user activity report). */
export function toCsv(entries: readonly AuditEntry[], patientColumn: boolean): string {
  const header = csvLine(patientColumn ? [...CSV_HEADER, 'Patients'] : CSV_HEADER);
  return (
    header +
    entries
      .map((e) =>
        csvLine([
          e.at,
          e.actor.name,
          e.actor.role,
          e.actor.practice,
          e.description,
          e.outcome === 'refused' ? 'Refused' : 'Done',
          AUDIT_CHANNEL_LABELS[e.channel],
          e.ip,
          e.requestId,
          ...(patientColumn ? [(e.patients ?? []).map((p) => p.name ?? AUDIT_HIDDEN_PATIENT).join('; ')] : []),
        ]),
      )
      .join('')
  );
}

const SOURCE = {
  site: 'HCP Portal',
  observer: { display: 'HCP Portal' },
  type: [{ system: 'http://terminology.hl7.org/CodeSystem/security-source-type', code: '4', display: 'Application Server' }],
};

/** One AuditEvent (FHIR R4), naming its patients as entities (role 1: Patient) and the person or system as agent. */
function auditEventOf(entry: AuditEntry, patientIds: readonly string[]) {
  const meaning = auditActionMeaning(entry.action);
  return {
    resourceType: 'AuditEvent',
    id: entry.id,
    type: { system: 'http://terminology.hl7.org/CodeSystem/audit-event-type', code: 'rest', display: 'RESTful Operation' },
    subtype: [{ system: 'urn:hcp-portal:audit-action', code: entry.action, display: entry.description }],
    action: meaning.verb,
    recorded: entry.at,
    // 0 success, 4 minor failure (refused).
    outcome: entry.outcome === 'refused' ? '4' : '0',
    ...(entry.outcome === 'refused' ? { outcomeDesc: entry.description } : {}),
    purposeOfEvent: [
      entry.channel === 'support'
        ? {
            coding: [
              { system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'ETREAT', display: 'Emergency Treatment' },
            ],
          }
        : { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'TREAT', display: 'treatment' }] },
    ],
    agent: [
      {
        type: {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/extra-security-role-type',
              code: entry.actor.userId ? 'humanuser' : 'dataprocessor',
              display: entry.actor.userId ? 'human user' : 'data processor',
            },
          ],
        },
        who: {
          ...(entry.actor.userId ? { identifier: { system: 'urn:hcp-portal:user', value: entry.actor.userId } } : {}),
          ...(entry.actor.name ? { display: entry.actor.name } : {}),
        },
        ...(entry.actor.role ? { role: [{ text: entry.actor.role }] } : {}),
        requestor: true,
        ...(entry.ip ? { network: { address: entry.ip, type: '2' } } : {}),
      },
    ],
    source: SOURCE,
    entity: [
      ...patientIds.map((id) => ({
        what: { reference: `Patient/${id}` },
        type: { system: 'http://terminology.hl7.org/CodeSystem/audit-entity-type', code: '1', display: 'Person' },
        role: { system: 'http://terminology.hl7.org/CodeSystem/object-role', code: '1', display: 'Patient' },
      })),
      ...(entry.requestId
        ? [{ what: { identifier: { system: 'urn:hcp-portal:request-id', value: entry.requestId } }, name: 'request' }]
        : []),
    ],
  };
}

/** The report as a FHIR Bundle (type collection) of AuditEvents, newest first. */
export function toFhirBundle(entries: readonly AuditEntry[], patientIdsOf: (entry: AuditEntry) => readonly string[], now: Date) {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: now.toISOString(),
    entry: entries.map((e) => ({ resource: auditEventOf(e, patientIdsOf(e)) })),
  };
}
