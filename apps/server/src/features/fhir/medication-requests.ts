/**
 * MedicationRequest writes: a prescription of a known patient by a prescriber of the patient's practice, the
 * pharmacy's order number as its identifier. A new one reads "Prescription received by the pharmacy" on its
 * timeline.
 */
import { EVENT_TYPES } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import type { BusinessIdentifier } from './mapping/common.ts';
import { unprocessable } from './mapping/common.ts';
import type { PrescriptionFields, PrescriptionRow } from './mapping/medication-request.ts';
import * as records from './records-repository.ts';
import { ONE } from './repository.ts';
import type { RecordOps } from './upsert.ts';

type Current = PrescriptionRow & { practiceId: string; versionId: string };

/** The practice (the patient's) and prescriber the fields name, or a 422 saying which is unknown. */
async function resolve(tx: Executor, tenantId: string, fields: PrescriptionFields) {
  const patient = (await records.patientRows(tx, tenantId, { id: fields.patientId }, ONE)).rows[0];
  if (!patient) unprocessable('MedicationRequest.subject', `Patient/${fields.patientId} is not known.`);
  const prescriberId = await records.prescriberOfPractice(tx, patient.practiceId, fields.prescriber);
  if (!prescriberId) {
    const who =
      'npi' in fields.prescriber ? `The prescriber with NPI ${fields.prescriber.npi}` : `Practitioner/${fields.prescriber.id}`;
    unprocessable('MedicationRequest.requester', `${who} is not a prescriber of the patient's practice.`);
  }
  return { practiceId: patient.practiceId, prescriberId };
}

const same = (a: Current, b: PrescriptionFields, prescriberId: string) =>
  a.prescriberId === prescriberId &&
  a.drugName === b.drugName &&
  a.prescribedNdc === b.ndc &&
  a.quantity === b.quantity &&
  a.daysSupply === b.daysSupply &&
  a.refills === b.refills &&
  a.sig === b.sig &&
  a.prescribedAt.getTime() === b.prescribedAt.getTime() &&
  a.dispenseAsWritten === b.dispenseAsWritten;

export function medicationRequestOps(
  tenantId: string,
  identifier: BusinessIdentifier,
  requestId: string,
): RecordOps<Current, PrescriptionFields> {
  const values = (fields: PrescriptionFields, resolved: { practiceId: string; prescriberId: string }) => {
    const { prescriber: _prescriber, ...rest } = fields;
    return { ...rest, ...resolved, orderNumber: identifier.value };
  };
  return {
    type: 'MedicationRequest',
    entityType: 'prescription',
    async lock(tx, tenant, key) {
      const row = (await records.prescriptionRows(tx, tenant, key, ONE, true)).rows[0];
      return row ? { ...row, versionId: String(row.version) } : null;
    },
    async create(tx, claim, fields) {
      if (!(await records.claimIdentifier(tx, claim))) return null;
      const id = claim.entityId;
      const resolved = await resolve(tx, tenantId, fields);
      await records.insertPrescription(tx, id, values(fields, resolved));
      await records.insertPrescriptionEvent(tx, { prescriptionId: id, type: EVENT_TYPES.received, requestId, data: {} });
      return {};
    },
    async update(tx, id, fields, current) {
      if (fields.patientId !== current.patientId) {
        unprocessable(
          'MedicationRequest.subject',
          'A prescription cannot move to another patient; send a new MedicationRequest.',
        );
      }
      const resolved = await resolve(tx, tenantId, fields);
      if (same(current, fields, resolved.prescriberId)) return false;
      await records.updatePrescription(tx, id, values(fields, resolved));
      return true;
    },
  };
}
