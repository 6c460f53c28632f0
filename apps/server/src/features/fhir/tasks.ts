/**
 * Task writes: an open Task raises its category on the prescription (the item appears on the practice's Action
 * Needed and in its counts at the next read); a cancelled one takes it off again unless another open Task of the
 * pharmacy still asks the same. A resend of an unchanged Task, or of an open Task the prescriber already
 * answered, raises nothing: the decision stands. New Tasks arrive through task-arrival.ts; what a Task sets on its
 * prescription is task-flags.ts.
 */
import { type ActionType, EVENT_TYPES, TASK_ACKNOWLEDGED_STATUS, TASK_OPEN_STATUSES, taskTransitionProblem } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import { unprocessable } from './mapping/common.ts';
import { effectiveStatus, isClosing, type TaskFields, type TaskRow } from './mapping/task.ts';
import { FhirError } from './outcome.ts';
import * as records from './records-repository.ts';
import { ONE } from './repository.ts';
import { createTasks } from './task-arrival.ts';
import {
  answerByRules,
  assertPracticeTakes,
  CLEARED,
  opened,
  raised,
  type TaskWriteContext,
  timelineEvent,
} from './task-flags.ts';
import { type NewRecord, type RecordOps, RecordRefused } from './upsert.ts';

const same = (a: TaskRow, b: TaskFields) =>
  a.status === b.status &&
  a.businessStatus === b.businessStatus &&
  a.note === b.note &&
  JSON.stringify(a.input) === JSON.stringify(b.inputs);

export function taskOps(
  tenantId: string,
  clientId: string,
  requestId: string,
  portalBase: string,
): RecordOps<TaskRow & { versionId: string }, TaskFields> {
  const ctx: TaskWriteContext = { tenantId, clientId, requestId, portalBase };
  const event = (tx: Executor, prescriptionId: string, type: string, category: ActionType) =>
    timelineEvent(ctx, tx, prescriptionId, type, category);
  const createMany = (tx: Executor, news: NewRecord<TaskFields>[]) => createTasks(ctx, tx, news);

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
    async lock(tx, tenant, key) {
      const row = (await records.taskRows(tx, tenant, key, ONE, true)).rows[0];
      return row ? { ...row, versionId: String(row.version) } : null;
    },
    async create(tx, claim, fields, audit) {
      try {
        return (await createMany(tx, [{ claim, fields, audit }]))[0] ?? null;
      } catch (error) {
        throw error instanceof RecordRefused ? error.refusal : error;
      }
    },
    createMany,
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
        await answerByRules(ctx, tx, current.prescriptionId, current.category);
      } else if (isOpen && current.itemOpen && JSON.stringify(current.input) !== JSON.stringify(fields.inputs)) {
        // The pharmacy updated what it asks (a new PA status, other alternatives) while the item still waits.
        await records.setPrescriptionFlags(tx, current.prescriptionId, raised(current.category, fields.inputs));
      }
      return true;
    },
  };
}
