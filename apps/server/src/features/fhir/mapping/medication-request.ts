/**
 * MedicationRequest <-> a prescription: the pharmacy's order number is its identifier, `subject` the patient,
 * `requester` the prescriber (by reference or by NPI), the medication by text and NDC.
 */
import { NDC_SYSTEM, NPI_SYSTEM } from '@hcp/contract';
import type { MedicationRequest } from '@medplum/fhirtypes';
import { type BusinessIdentifier, businessIdentifier, fhirDateOf, meta, referencedId, unprocessable } from './common.ts';

export interface PrescriptionFields {
  patientId: string;
  prescriber: { id: string } | { npi: string };
  drugName: string;
  ndc: string | null;
  quantity: number | null;
  daysSupply: number | null;
  refills: number;
  sig: string | null;
  prescribedAt: Date;
  dispenseAsWritten: boolean;
}

export interface PrescriptionRow {
  id: string;
  patientId: string;
  prescriberId: string;
  drugName: string;
  prescribedNdc: string | null;
  quantity: number | null;
  daysSupply: number | null;
  refills: number;
  sig: string | null;
  prescribedAt: Date;
  dispenseAsWritten: boolean;
  version: number;
  updatedAt: Date;
  identifiers: BusinessIdentifier[];
}

const whole = (value: number | undefined, expression: string, max: number): number | null => {
  if (value === undefined) return null;
  if (!Number.isInteger(value) || value < 0 || value > max)
    unprocessable(expression, `${expression} must be a whole number from 0 to ${max}.`);
  return value;
};

export function fromMedicationRequest(resource: MedicationRequest): {
  identifier: BusinessIdentifier;
  fields: PrescriptionFields;
} {
  const identifier = businessIdentifier(resource.identifier, 'MedicationRequest.identifier');
  if (resource.status !== 'active') {
    unprocessable(
      'MedicationRequest.status',
      'MedicationRequest.status must be active: the portal holds prescriptions the pharmacy is filling.',
    );
  }
  if (resource.intent !== 'order') unprocessable('MedicationRequest.intent', 'MedicationRequest.intent must be order.');
  const patientId = referencedId(resource.subject, 'Patient', 'MedicationRequest.subject');
  const requester = resource.requester;
  const npi = requester?.identifier?.system === NPI_SYSTEM ? requester.identifier.value : undefined;
  const prescriber = npi ? { npi } : { id: referencedId(requester, 'Practitioner', 'MedicationRequest.requester') };
  const concept = resource.medicationCodeableConcept;
  const drugName = (concept?.text ?? concept?.coding?.find((c) => c.display)?.display)?.trim();
  if (!drugName) {
    unprocessable(
      'MedicationRequest.medicationCodeableConcept',
      'MedicationRequest.medicationCodeableConcept needs a text (the drug name).',
    );
  }
  if (drugName.length > 200) unprocessable('MedicationRequest.medicationCodeableConcept.text', 'The drug name is too long.');
  const ndc = concept?.coding?.find((c) => c.system === NDC_SYSTEM)?.code ?? null;
  if (ndc !== null && !/^\d{4,5}-?\d{3,4}-?\d{1,2}$/.test(ndc)) {
    unprocessable('MedicationRequest.medicationCodeableConcept.coding', 'The NDC is not a valid product code.');
  }
  if (!resource.authoredOn) unprocessable('MedicationRequest.authoredOn', 'MedicationRequest.authoredOn is required.');
  const prescribedAt = fhirDateOf(resource.authoredOn, 'dateTime', 'MedicationRequest.authoredOn').start;
  if (prescribedAt.getTime() > Date.now() + 86_400_000) {
    unprocessable('MedicationRequest.authoredOn', 'MedicationRequest.authoredOn is not a past date.');
  }
  const dispense = resource.dispenseRequest;
  const supply = dispense?.expectedSupplyDuration;
  if (supply && supply.unit !== undefined && !['d', 'day', 'days'].includes(supply.unit) && supply.code !== 'd') {
    unprocessable('MedicationRequest.dispenseRequest.expectedSupplyDuration', 'The supply duration must be in days.');
  }
  const sig = resource.dosageInstruction?.[0]?.text?.trim() ?? null;
  if (sig && sig.length > 1000) unprocessable('MedicationRequest.dosageInstruction.text', 'The directions are too long.');
  return {
    identifier,
    fields: {
      patientId,
      prescriber,
      drugName,
      ndc,
      quantity: whole(dispense?.quantity?.value, 'MedicationRequest.dispenseRequest.quantity', 100_000),
      daysSupply: whole(supply?.value, 'MedicationRequest.dispenseRequest.expectedSupplyDuration', 3650),
      refills: whole(dispense?.numberOfRepeatsAllowed, 'MedicationRequest.dispenseRequest.numberOfRepeatsAllowed', 99) ?? 0,
      sig: sig || null,
      prescribedAt,
      dispenseAsWritten: resource.substitution?.allowedBoolean === false,
    },
  };
}

export function toMedicationRequest(row: PrescriptionRow): MedicationRequest {
  return {
    resourceType: 'MedicationRequest',
    id: row.id,
    meta: meta(row.updatedAt, row.version),
    identifier: row.identifiers.map(({ system, value }) => ({ system, value })),
    status: 'active',
    intent: 'order',
    subject: { reference: `Patient/${row.patientId}` },
    requester: { reference: `Practitioner/${row.prescriberId}` },
    medicationCodeableConcept: {
      text: row.drugName,
      ...(row.prescribedNdc ? { coding: [{ system: NDC_SYSTEM, code: row.prescribedNdc }] } : {}),
    },
    authoredOn: row.prescribedAt.toISOString(),
    ...(row.sig ? { dosageInstruction: [{ text: row.sig }] } : {}),
    dispenseRequest: {
      numberOfRepeatsAllowed: row.refills,
      ...(row.quantity !== null ? { quantity: { value: row.quantity } } : {}),
      ...(row.daysSupply !== null
        ? { expectedSupplyDuration: { value: row.daysSupply, unit: 'days', system: 'http://unitsofmeasure.org', code: 'd' } }
        : {}),
    },
    substitution: { allowedBoolean: !row.dispenseAsWritten },
  };
}
