/**
 * Communication <-> a patient's comment for their practice (New Comments): `subject` and `sender` the patient,
 * `about` the prescription it concerns, `payload` the text. A sent message does not change afterwards.
 */
import { COMMENT_MAX_LENGTH } from '@hcp/contract';
import type { Communication } from '@medplum/fhirtypes';
import { type BusinessIdentifier, businessIdentifier, fhirDateOf, meta, referencedId, unprocessable } from './common.ts';

export interface CommentFields {
  patientId: string;
  prescriptionId: string | null;
  practiceId: string | null;
  body: string;
  sentAt: Date | null;
}

export interface CommentRow {
  id: string;
  patientId: string;
  practiceId: string;
  prescriptionId: string | null;
  body: string;
  createdAt: Date;
  identifiers: BusinessIdentifier[];
}

export function fromCommunication(resource: Communication): { identifier: BusinessIdentifier; fields: CommentFields } {
  const identifier = businessIdentifier(resource.identifier, 'Communication.identifier');
  if (resource.status !== 'completed') {
    unprocessable('Communication.status', 'Communication.status must be completed (a message the patient sent).');
  }
  const patientId = referencedId(resource.subject, 'Patient', 'Communication.subject');
  if (resource.sender && referencedId(resource.sender, 'Patient', 'Communication.sender') !== patientId) {
    unprocessable('Communication.sender', 'Only the patient in Communication.subject can be the sender.');
  }
  const about = resource.about ?? [];
  if (about.length > 1) unprocessable('Communication.about', 'Communication.about names at most one MedicationRequest.');
  const prescriptionId = about[0] ? referencedId(about[0], 'MedicationRequest', 'Communication.about') : null;
  const recipients = resource.recipient ?? [];
  if (recipients.length > 1) unprocessable('Communication.recipient', 'Communication.recipient names at most one practice.');
  const practiceId = recipients[0] ? referencedId(recipients[0], 'Organization', 'Communication.recipient') : null;
  const texts = (resource.payload ?? []).map((p) => p.contentString?.trim()).filter((t): t is string => Boolean(t));
  if (texts.length !== 1) unprocessable('Communication.payload', 'Communication.payload needs one contentString (the message).');
  const body = texts[0] as string;
  if (body.length > COMMENT_MAX_LENGTH) {
    unprocessable('Communication.payload', `The message is longer than ${COMMENT_MAX_LENGTH} characters.`);
  }
  const sentAt = resource.sent === undefined ? null : fhirDateOf(resource.sent, 'dateTime', 'Communication.sent').start;
  if (sentAt && sentAt.getTime() > Date.now() + 300_000) {
    unprocessable('Communication.sent', 'Communication.sent is not a past time.');
  }
  return { identifier, fields: { patientId, prescriptionId, practiceId, body, sentAt } };
}

export function toCommunication(row: CommentRow): Communication {
  return {
    resourceType: 'Communication',
    id: row.id,
    meta: meta(row.createdAt, 1),
    identifier: row.identifiers.map(({ system, value }) => ({ system, value })),
    status: 'completed',
    subject: { reference: `Patient/${row.patientId}` },
    sender: { reference: `Patient/${row.patientId}` },
    recipient: [{ reference: `Organization/${row.practiceId}` }],
    ...(row.prescriptionId ? { about: [{ reference: `MedicationRequest/${row.prescriptionId}` }] } : {}),
    sent: row.createdAt.toISOString(),
    payload: [{ contentString: row.body }],
  };
}
