/** Patient writes: a patient of one of the tenant's practices; their practice stays once they have prescriptions. */
import type { Executor } from '../../db/client.ts';
import { unprocessable } from './mapping/common.ts';
import type { PatientFields, PatientRow } from './mapping/patient.ts';
import * as records from './records-repository.ts';
import { ONE } from './repository.ts';
import type { RecordOps } from './upsert.ts';

const same = (a: PatientRow, b: PatientFields) =>
  a.practiceId === b.practiceId &&
  a.firstName === b.firstName &&
  a.lastName === b.lastName &&
  a.dob === b.dob &&
  a.phoneNumbers.join() === b.phoneNumbers.join() &&
  a.address1 === b.address1 &&
  a.city === b.city &&
  a.state === b.state &&
  a.zip === b.zip;

async function checkPractice(tx: Executor, tenantId: string, fields: PatientFields) {
  if (!(await records.practiceInTenant(tx, tenantId, fields.practiceId))) {
    unprocessable('Patient.managingOrganization', `Organization/${fields.practiceId} is not a practice of this portal.`);
  }
}

export function patientOps(tenantId: string): RecordOps<PatientRow & { versionId: string }, PatientFields> {
  return {
    type: 'Patient',
    entityType: 'patient',
    async lock(tx, tenant, key) {
      const row = (await records.patientRows(tx, tenant, key, ONE, true)).rows[0];
      return row ? { ...row, versionId: String(row.updatedAt.getTime()) } : null;
    },
    async create(tx, claim, fields) {
      if (!(await records.claimIdentifier(tx, claim))) return null;
      const id = claim.entityId;
      await checkPractice(tx, tenantId, fields);
      await records.insertPatient(tx, id, fields);
      return {};
    },
    async update(tx, id, fields, current) {
      if (same(current, fields)) return false;
      await checkPractice(tx, tenantId, fields);
      if (current.practiceId !== fields.practiceId && (await records.patientHasPrescriptions(tx, id))) {
        unprocessable('Patient.managingOrganization', 'A patient with prescriptions cannot move to another practice.');
      }
      await records.updatePatient(tx, id, fields);
      return true;
    },
  };
}
