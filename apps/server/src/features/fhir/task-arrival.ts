/**
 * A pharmacy's new Tasks (issue 46 part 6, decision 0055): every identifier claimed in one statement with what each
 * arrival needs of its prescription, then every plain new Task written in one more and answered as it will read. A
 * request a standing rule may answer on arrival, an appeal (its link and key, once) and a Task withdrawn as it
 * arrives are written at once and read back.
 */
import { randomBytes } from 'node:crypto';
import { APPEAL_LINK_DAYS, appealLinkPath, EVENT_TYPES, TASK_ACKNOWLEDGED_STATUS } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import { sha256 } from '../../lib/crypto.ts';
import { outputOf } from './mapping/answer.ts';
import { meta, unprocessable } from './mapping/common.ts';
import { isClosing, type TaskFields, type TaskInputs, type TaskRow, toTask } from './mapping/task.ts';
import * as records from './records-repository.ts';
import {
  answerByRules,
  opened,
  raisesItem,
  refuseWhenPracticeDeclines,
  type TaskWriteContext,
  timelineEvent,
} from './task-flags.ts';
import { type Created, type NewRecord, RecordRefused } from './upsert.ts';
import type { RecordedWrite } from './versions-repository.ts';

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

/**
 * A new Task whose identifier was claimed: checked, then either written at once (a request the practice's rules
 * answer on arrival, an appeal, a Task withdrawn as it arrives) or planned for the one statement that writes every
 * new open Task of the request (openTasks) and answered as it will read.
 */
async function arrive(
  ctx: TaskWriteContext,
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
    tenantId: ctx.tenantId,
    clientId: ctx.clientId,
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
    const once = fields.category === 'appeals' ? await openAppeal(tx, id, rx, fields.inputs, ctx.portalBase) : undefined;
    await records.setPrescriptionFlags(tx, rx.id, opened(fields.category, fields.inputs));
    await timelineEvent(ctx, tx, rx.id, EVENT_TYPES.pharmacyRequested, fields.category);
    await answerByRules(ctx, tx, rx.id, fields.category);
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
    open: {
      id,
      values,
      flags,
      event: { type: EVENT_TYPES.pharmacyRequested, requestId: ctx.requestId, data: { category: fields.category } },
    },
    recorded: { audit, version: { tenantId: ctx.tenantId, type: 'Task', id, versionId: body.meta.versionId, resource: body } },
  };
}

/** New Tasks: every claim in one statement, every plain new Task in one more (a Bundle of 100 too). */
export async function createTasks(
  ctx: TaskWriteContext,
  tx: Executor,
  news: NewRecord<TaskFields>[],
): Promise<(Created | null)[]> {
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
      const answer = await arrive(ctx, tx, created, arrival);
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
      planned.map((p) => p.recorded),
    );
  }
  return answers;
}
