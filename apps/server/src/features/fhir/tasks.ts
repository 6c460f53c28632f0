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
  hasActionType,
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
import { meta, unprocessable } from './mapping/common.ts';
import { effectiveStatus, isClosing, type TaskFields, type TaskInputs, type TaskRow, toTask } from './mapping/task.ts';
import { FhirError } from './outcome.ts';
import * as records from './records-repository.ts';
import { ONE } from './repository.ts';
import { type Created, type NewRecord, type RecordOps, RecordRefused } from './upsert.ts';
import { auditAndKeepVersionsCtes, type RecordedWrite } from './versions-repository.ts';

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

/**
 * Whether the item a new open Task raised shows on Action Needed: the contract's rule over the flags it set (the
 * read asks the same question in SQL, lib/prescription-sql.ts). A PA status that needs nothing of the prescriber
 * raises nothing.
 */
const raisesItem = (category: ActionType, flags: Flags) =>
  hasActionType(
    {
      needsRefillAuth: flags.needsRefillAuth ?? false,
      phoneException: flags.phoneException ?? false,
      substitutionStatus: flags.substitutionStatus ?? null,
      priorAuthStatus: flags.priorAuthStatus ?? null,
      hcpActionRequired: flags.hcpActionRequired ?? false,
    },
    category,
  );

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
function refuseWhenPracticeDeclines(prefs: { refillRequestOption: string; paHandling: string }, category: ActionType) {
  const refusal = requestRefusedByPractice(category, prefs);
  // business-rule, not processing: the Task is well formed; the practice declines this kind of request.
  if (refusal) throw new FhirError(422, 'business-rule', refusal, ['Task.code']);
}

async function assertPracticeTakes(tx: Executor, prescriptionId: string, category: ActionType) {
  const prefs = await records.practicePreferencesOfPrescription(tx, prescriptionId);
  if (prefs) refuseWhenPracticeDeclines(prefs, category);
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

  /**
   * A new Task whose identifier was claimed: checked, then either written at once (a request the practice's rules
   * answer on arrival, an appeal, a Task withdrawn as it arrives) or planned for the one statement that writes every
   * new open Task of the request (openTasks) and answered as it will read.
   */
  async function arrive(
    tx: Executor,
    { claim, fields, audit }: NewRecord<TaskFields>,
    arrival: records.TaskArrival,
  ): Promise<Created | { open: records.OpenTask; recorded: RecordedWrite }> {
    if (fields.status === TASK_ACKNOWLEDGED_STATUS) {
      unprocessable('Task.status', 'A new Task cannot be completed: the prescriber answers it first.');
    }
    const rx = arrival.prescription;
    if (!rx) unprocessable('Task.focus', `MedicationRequest/${fields.prescriptionId} is not known.`);
    if (fields.patientId !== null && fields.patientId !== rx.patientId) {
      unprocessable('Task.for', 'Task.for is not the patient of the MedicationRequest in Task.focus.');
    }
    const id = claim.entityId;
    const values = {
      tenantId,
      clientId,
      prescriptionId: rx.id,
      category: fields.category,
      status: fields.status,
      businessStatus: fields.businessStatus,
      input: fields.inputs,
      note: fields.note,
    };
    if (isClosing(fields.status)) {
      await records.insertTask(tx, id, values);
      return {};
    }
    refuseWhenPracticeDeclines(rx.preferences, fields.category);
    const answeredOnArrival = fields.category === 'refillAuth' && rx.hasRules;
    if (fields.category === 'appeals' || answeredOnArrival) {
      await records.insertTask(tx, id, values);
      const once = fields.category === 'appeals' ? await openAppeal(tx, id, rx, fields.inputs, portalBase) : undefined;
      await records.setPrescriptionFlags(tx, rx.id, opened(fields.category, fields.inputs));
      await event(tx, rx.id, EVENT_TYPES.pharmacyRequested, fields.category);
      await answerByRules(tx, rx.id, fields.category);
      return once ? { once } : {};
    }
    // The way nearly every request goes: row, flag, timeline, audit row and first version in the request's one write
    // statement, answered as the Task will read (what a read answers, tested per kind in fhir-write-path.test.ts).
    // No rule routes a refill request by fax any more (the practice has none enabled): a route left from before goes.
    const flags = {
      ...opened(fields.category, fields.inputs),
      ...(fields.category === 'refillAuth' ? { faxRuleId: null } : {}),
    };
    const row: TaskRow = {
      id,
      category: fields.category,
      status: fields.status,
      businessStatus: fields.businessStatus,
      input: fields.inputs,
      note: fields.note,
      prescriptionId: rx.id,
      patientId: rx.patientId,
      prescriberId: rx.prescriberId,
      itemOpen: raisesItem(fields.category, flags),
      postponedUntil: null,
      decision: null,
      appealExpiresAt: null,
      appealSubmitted: null,
      version: 1,
      createdAt: arrival.now,
      updatedAt: arrival.now,
      identifiers: [claim.identifier],
    };
    // meta as toTask sets it, spelled out for its type (a Task's meta is optional in R4).
    const body = { ...toTask(row), meta: meta(row.updatedAt, row.version) };
    return {
      open: { id, values, flags, event: { type: EVENT_TYPES.pharmacyRequested, requestId, data: { category: fields.category } } },
      recorded: { audit, version: { tenantId, type: 'Task', id, versionId: body.meta.versionId, resource: body } },
    };
  }

  /** New Tasks: every claim in one statement, every plain new Task in one more (a Bundle of 100 too). */
  async function createMany(tx: Executor, news: NewRecord<TaskFields>[]): Promise<(Created | null)[]> {
    const arrivals = await records.claimTaskArrivals(
      tx,
      news.map(({ claim, fields }) => ({ ...claim, prescriptionId: fields.prescriptionId })),
    );
    const answers: (Created | null)[] = [];
    const planned: { open: records.OpenTask; recorded: RecordedWrite }[] = [];
    for (const [index, created] of news.entries()) {
      const arrival = arrivals[index];
      if (!arrival) {
        answers.push(null);
        continue;
      }
      try {
        const answer = await arrive(tx, created, arrival);
        if ('open' in answer) {
          planned.push(answer);
          answers.push({ recorded: answer.recorded.version.resource as { meta: { versionId: string } } });
        } else answers.push(answer);
      } catch (error) {
        throw new RecordRefused(index, error);
      }
    }
    if (planned.length > 0) {
      await records.openTasks(
        tx,
        planned.map((p) => p.open),
        auditAndKeepVersionsCtes(planned.map((p) => p.recorded)),
      );
    }
    return answers;
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
        await answerByRules(tx, current.prescriptionId, current.category);
      } else if (isOpen && current.itemOpen && JSON.stringify(current.input) !== JSON.stringify(fields.inputs)) {
        // The pharmacy updated what it asks (a new PA status, other alternatives) while the item still waits.
        await records.setPrescriptionFlags(tx, current.prescriptionId, raised(current.category, fields.inputs));
      }
      return true;
    },
  };
}
