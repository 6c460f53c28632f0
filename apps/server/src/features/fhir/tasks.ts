/**
 * Task writes: an open Task raises its category on the prescription (the item appears on the practice's Action
 * Needed and in its counts at the next read); a cancelled one takes it off again unless another open Task of the
 * pharmacy still asks the same. A resend of an unchanged Task, or of an open Task the prescriber already
 * answered, raises nothing: the decision stands.
 */
import { randomBytes } from 'node:crypto';
import {
  type ActionType,
  APPEAL_LINK_DAYS,
  appealLinkPath,
  EVENT_TYPES,
  requestRefusedByPractice,
  TASK_ACKNOWLEDGED_STATUS,
  TASK_OPEN_STATUSES,
  TASK_SUBSTITUTION_REASONS,
  taskTransitionProblem,
} from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import type { prescriptions } from '../../db/schema.ts';
import { sha256 } from '../../lib/crypto.ts';
import { answerArrivedRequest } from '../../lib/standing-rules.ts';
import { outputOf } from './mapping/answer.ts';
import { unprocessable } from './mapping/common.ts';
import { effectiveStatus, isClosing, type TaskFields, type TaskInputs, type TaskRow } from './mapping/task.ts';
import { FhirError } from './outcome.ts';
import * as records from './records-repository.ts';
import { ONE } from './repository.ts';
import type { RecordOps } from './upsert.ts';

type Flags = Partial<typeof prescriptions.$inferInsert>;

/** The decision facts a Task reports (issue 22), kept on the prescription; a fact not sent stays as it was. */
function facts(inputs: TaskInputs): Flags {
  return {
    ...(inputs.lastFillDate ? { lastFilledOn: inputs.lastFillDate } : {}),
    ...(inputs.refillsRemaining ? { refillsRemaining: Number(inputs.refillsRemaining) } : {}),
    ...(inputs.paExpires ? { priorAuthExpiresOn: inputs.paExpires } : {}),
  };
}

/** What an open Task of each category sets on its prescription. */
function raised(category: ActionType, inputs: TaskInputs): Flags {
  return { ...facts(inputs), ...flagsOf(category, inputs) };
}

/** What a request opening now sets: its flags, and when it reached the portal (the queue's waiting order). */
const opened = (category: ActionType, inputs: TaskInputs): Flags => ({
  ...raised(category, inputs),
  requestReceivedAt: new Date(),
});

function flagsOf(category: ActionType, inputs: TaskInputs): Flags {
  switch (category) {
    case 'refillAuth':
      return { needsRefillAuth: true, refillPostponedUntil: null };
    case 'priorAuth':
      return { priorAuthStatus: inputs.paStatus, ...(inputs.paMethod ? { priorAuthMethod: inputs.paMethod } : {}) };
    case 'altMed':
      return {
        substitutionStatus: TASK_SUBSTITUTION_REASONS[inputs.substitutionReason ?? 'other'],
        offeredAlternatives: inputs.alternatives ?? null,
        selectedAlternativeMed: null,
      };
    case 'phoneException':
      return { phoneException: true };
    case 'appeals':
      return { hcpActionRequired: true };
  }
}

/** What withdrawing the last open Task of a category clears. */
const CLEARED: Record<ActionType, Flags> = {
  refillAuth: { needsRefillAuth: false, refillPostponedUntil: null },
  priorAuth: { priorAuthStatus: null },
  altMed: { substitutionStatus: null, offeredAlternatives: null },
  phoneException: { phoneException: false },
  appeals: { hcpActionRequired: false },
};

const same = (a: TaskRow, b: TaskFields) =>
  a.status === b.status &&
  a.businessStatus === b.businessStatus &&
  a.note === b.note &&
  JSON.stringify(a.input) === JSON.stringify(b.inputs);

/**
 * An appeal Task opens an appeal the prescriber signs in to with their NPI and a new access key (only its hash is
 * kept); the link and key go back to the pharmacy in this answer's Task.output, once.
 */
async function openAppeal(
  tx: Executor,
  taskId: string,
  prescription: { id: string; prescriberId: string },
  inputs: TaskInputs,
  portalBase: string,
) {
  const npi = await records.npiOfPrescriber(tx, prescription.prescriberId);
  if (!npi) unprocessable('Task.focus', "The prescription's prescriber has no NPI, which an appeal link signs in with.");
  const key = randomBytes(8).toString('hex').toUpperCase();
  const expiresAt = new Date(Date.now() + APPEAL_LINK_DAYS * 86_400_000);
  const clinicalNotesRequired = inputs.clinicalNotesRequired === 'true';
  const appealId = await records.insertAppeal(tx, {
    prescriptionId: prescription.id,
    npi,
    keyHash: sha256(key),
    expiresAt,
    payer: inputs.payer ?? null,
    denialReason: inputs.denialReason ?? null,
    denialDate: inputs.denialDate ?? null,
    whatIsNeeded: inputs.whatIsNeeded ?? null,
    clinicalNotesRequired,
  });
  await records.setTaskAppeal(tx, taskId, appealId);
  return {
    output: [
      outputOf('appeal-link', { valueUrl: `${portalBase}${appealLinkPath(npi, key, clinicalNotesRequired)}` }),
      outputOf('appeal-key', { valueString: key }),
    ],
  };
}

/** A request the practice said it does not take (its refill and PA choices) is refused, naming why. */
async function assertPracticeTakes(tx: Executor, prescriptionId: string, category: ActionType) {
  const prefs = await records.practicePreferencesOfPrescription(tx, prescriptionId);
  const refusal = prefs ? requestRefusedByPractice(category, prefs) : null;
  // business-rule, not processing: the Task is well formed; the practice declines this kind of request.
  if (refusal) throw new FhirError(422, 'business-rule', refusal, ['Task.code']);
}

export function taskOps(
  tenantId: string,
  clientId: string,
  requestId: string,
  portalBase: string,
): RecordOps<TaskRow & { versionId: string }, TaskFields> {
  const event = (tx: Executor, prescriptionId: string, type: string, category: ActionType) =>
    records.insertPrescriptionEvent(tx, { prescriptionId, type, requestId, data: { category } });

  /** A refill request the practice's standing rules answer is answered as it arrives (issue 23). */
  const answerByRules = async (tx: Executor, prescriptionId: string, category: ActionType) => {
    if (category === 'refillAuth') await answerArrivedRequest(tx, prescriptionId, requestId);
  };

  /** What the pharmacy sent, on its Task; what it refers to never changes. */
  const saveTask = (tx: Executor, id: string, fields: TaskFields, current: TaskRow) =>
    records.updateTask(tx, id, {
      prescriptionId: current.prescriptionId,
      category: current.category,
      status: fields.status,
      businessStatus: fields.businessStatus,
      input: fields.inputs,
      note: fields.note,
    });

  /**
   * The pharmacy completes its Task once the prescriber answered it: "received by the pharmacy" on the timeline,
   * once. A Task still waiting, withdrawn, or already completed and now reopened is refused.
   */
  async function acknowledge(tx: Executor, id: string, fields: TaskFields, current: TaskRow) {
    if (fields.status !== TASK_ACKNOWLEDGED_STATUS) {
      unprocessable('Task.status', 'A completed Task does not reopen; send a new Task.');
    }
    if (isClosing(current.status)) unprocessable('Task.status', 'A withdrawn Task cannot be completed.');
    if (current.itemOpen) {
      unprocessable('Task.status', 'The prescriber has not answered this Task yet: cancel it to withdraw it.');
    }
    await saveTask(tx, id, fields, current);
    if (current.status !== TASK_ACKNOWLEDGED_STATUS) {
      await event(tx, current.prescriptionId, EVENT_TYPES.pharmacyAcknowledged, current.category);
    }
    return true;
  }

  return {
    type: 'Task',
    entityType: 'prescription-task',
    async lock(tx, tenant, id) {
      const row = (await records.taskRows(tx, tenant, { id }, ONE, true)).rows[0];
      return row ? { ...row, versionId: String(row.version) } : null;
    },
    async create(tx, id, fields) {
      if (fields.status === TASK_ACKNOWLEDGED_STATUS) {
        unprocessable('Task.status', 'A new Task cannot be completed: the prescriber answers it first.');
      }
      const rx = (await records.prescriptionRows(tx, tenantId, { id: fields.prescriptionId }, ONE, true)).rows[0];
      if (!rx) unprocessable('Task.focus', `MedicationRequest/${fields.prescriptionId} is not known.`);
      if (fields.patientId !== null && fields.patientId !== rx.patientId) {
        unprocessable('Task.for', 'Task.for is not the patient of the MedicationRequest in Task.focus.');
      }
      await records.insertTask(tx, id, {
        tenantId,
        clientId,
        prescriptionId: rx.id,
        category: fields.category,
        status: fields.status,
        businessStatus: fields.businessStatus,
        input: fields.inputs,
        note: fields.note,
      });
      if (isClosing(fields.status)) return;
      await assertPracticeTakes(tx, rx.id, fields.category);
      const once = fields.category === 'appeals' ? await openAppeal(tx, id, rx, fields.inputs, portalBase) : undefined;
      await records.setPrescriptionFlags(tx, rx.id, opened(fields.category, fields.inputs));
      await event(tx, rx.id, EVENT_TYPES.pharmacyRequested, fields.category);
      await answerByRules(tx, rx.id, fields.category);
      return once;
    },
    async update(tx, id, fields, current) {
      if (fields.category !== current.category) unprocessable('Task.code', 'Task.code cannot change; send a new Task.');
      if (fields.prescriptionId !== current.prescriptionId)
        unprocessable('Task.focus', 'Task.focus cannot change; send a new Task.');
      if (fields.patientId !== null && fields.patientId !== current.patientId) {
        unprocessable('Task.for', 'Task.for is not the patient of the MedicationRequest in Task.focus.');
      }
      // A resend of what the pharmacy sent before changes nothing, whatever happened since (resends act once).
      if (same(current, fields)) return false;
      // Anything else is a change of state, which the state machine must allow: a Task the prescriber answered, or
      // one the pharmacy withdrew, is final (a withdrawn appeal's link stays expired; a new request is a new Task).
      const from = effectiveStatus(current);
      const refused = taskTransitionProblem(from, fields.status);
      if (refused) throw new FhirError(409, 'business-rule', refused, ['Task.status']);
      if (fields.status === TASK_ACKNOWLEDGED_STATUS || current.status === TASK_ACKNOWLEDGED_STATUS) {
        return acknowledge(tx, id, fields, current);
      }
      await saveTask(tx, id, fields, current);
      const wasOpen = !isClosing(current.status);
      const isOpen = !isClosing(fields.status);
      if (wasOpen && !isOpen && current.itemOpen) {
        const others = await records.otherOpenTasks(tx, current.prescriptionId, current.category, id, TASK_OPEN_STATUSES);
        if (current.category === 'appeals') await records.expireAppealOfTask(tx, id);
        if (others === 0) {
          await records.setPrescriptionFlags(tx, current.prescriptionId, CLEARED[current.category]);
          await event(tx, current.prescriptionId, EVENT_TYPES.pharmacyWithdrew, current.category);
        }
      } else if (!wasOpen && isOpen) {
        await assertPracticeTakes(tx, current.prescriptionId, current.category);
        await records.setPrescriptionFlags(tx, current.prescriptionId, opened(current.category, fields.inputs));
        await event(tx, current.prescriptionId, EVENT_TYPES.pharmacyRequested, current.category);
        await answerByRules(tx, current.prescriptionId, current.category);
      } else if (isOpen && current.itemOpen && JSON.stringify(current.input) !== JSON.stringify(fields.inputs)) {
        // The pharmacy updated what it asks (a new PA status, other alternatives) while the item still waits.
        await records.setPrescriptionFlags(tx, current.prescriptionId, raised(current.category, fields.inputs));
      }
      return true;
    },
  };
}
