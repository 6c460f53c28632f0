/**
 * Communication writes: a patient's comment for their practice, shown unread on its New Comments. The patient,
 * the practice and the prescription it is about must belong together; a sent message never changes.
 */
import type { Executor } from '../../db/client.ts';
import { unprocessable } from './mapping/common.ts';
import type { CommentFields, CommentRow } from './mapping/communication.ts';
import * as records from './records-repository.ts';
import { ONE } from './repository.ts';
import type { RecordOps } from './upsert.ts';

async function resolve(tx: Executor, tenantId: string, fields: CommentFields) {
  const patient = (await records.patientRows(tx, tenantId, { id: fields.patientId }, ONE)).rows[0];
  if (!patient) unprocessable('Communication.subject', `Patient/${fields.patientId} is not known.`);
  if (fields.practiceId !== null && fields.practiceId !== patient.practiceId) {
    unprocessable('Communication.recipient', "Communication.recipient must be the patient's practice.");
  }
  if (fields.prescriptionId !== null) {
    const rx = (await records.prescriptionRows(tx, tenantId, { id: fields.prescriptionId }, ONE)).rows[0];
    if (rx?.patientId !== patient.id)
      unprocessable('Communication.about', 'Communication.about is not a prescription of this patient.');
  }
  return patient.practiceId;
}

export function communicationOps(tenantId: string): RecordOps<CommentRow & { versionId: string }, CommentFields> {
  return {
    type: 'Communication',
    entityType: 'comment',
    async lock(tx, tenant, key) {
      const row = (await records.commentRows(tx, tenant, key, ONE, true)).rows[0];
      return row ? { ...row, versionId: '1' } : null;
    },
    async create(tx, claim, fields) {
      if (!(await records.claimIdentifier(tx, claim))) return null;
      const id = claim.entityId;
      const practiceId = await resolve(tx, tenantId, fields);
      await records.insertPatientComment(tx, id, { ...fields, practiceId });
      return {};
    },
    async update(_tx, _id, fields, current) {
      const same =
        current.body === fields.body &&
        current.patientId === fields.patientId &&
        current.prescriptionId === fields.prescriptionId;
      if (!same) unprocessable('Communication.payload', 'A sent message cannot change; send a new Communication.');
      return false;
    },
  };
}
