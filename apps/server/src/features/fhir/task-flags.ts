/**
 * What a pharmacy's Task sets on its prescription (the Action Needed item it raises or clears), shared by a new
 * Task's arrival (task-arrival.ts) and a Task's change (tasks.ts), with the refusal of a request the practice declines
 * and the context every Task write carries.
 */
import { type ActionType, hasActionType, requestRefusedByPractice, TASK_SUBSTITUTION_REASONS } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import type { prescriptions } from '../../db/schema.ts';
import { answerArrivedRequest } from '../../lib/standing-rules.ts';
import type { TaskInputs } from './mapping/task.ts';
import { FhirError } from './outcome.ts';
import * as records from './records-repository.ts';

export type Flags = Partial<typeof prescriptions.$inferInsert>;

/** Who writes (the pharmacy system, its request) and where the portal's links point. */
export interface TaskWriteContext {
  tenantId: string;
  clientId: string;
  requestId: string;
  portalBase: string;
}

/** A Task's event on its prescription's timeline. */
export const timelineEvent = (ctx: TaskWriteContext, tx: Executor, prescriptionId: string, type: string, category: ActionType) =>
  records.insertPrescriptionEvent(tx, { prescriptionId, type, requestId: ctx.requestId, data: { category } });

/** A refill request the practice's standing rules answer is answered as it arrives (issue 23). */
export const answerByRules = async (ctx: TaskWriteContext, tx: Executor, prescriptionId: string, category: ActionType) => {
  if (category === 'refillAuth') await answerArrivedRequest(tx, prescriptionId, ctx.requestId);
};

/** The decision facts a Task reports (issue 22), kept on the prescription; a fact not sent stays as it was. */
function facts(inputs: TaskInputs): Flags {
  return {
    ...(inputs.lastFillDate ? { lastFilledOn: inputs.lastFillDate } : {}),
    ...(inputs.refillsRemaining ? { refillsRemaining: Number(inputs.refillsRemaining) } : {}),
    ...(inputs.paExpires ? { priorAuthExpiresOn: inputs.paExpires } : {}),
  };
}

/** What an open Task of each category sets on its prescription. */
export function raised(category: ActionType, inputs: TaskInputs): Flags {
  return { ...facts(inputs), ...flagsOf(category, inputs) };
}

/** What a request opening now sets: its flags, and when it reached the portal (the queue's waiting order). */
export const opened = (category: ActionType, inputs: TaskInputs): Flags => ({
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
export const raisesItem = (category: ActionType, flags: Flags) =>
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
export const CLEARED: Record<ActionType, Flags> = {
  refillAuth: { needsRefillAuth: false, refillPostponedUntil: null },
  priorAuth: { priorAuthStatus: null },
  altMed: { substitutionStatus: null, offeredAlternatives: null },
  phoneException: { phoneException: false },
  appeals: { hcpActionRequired: false },
};

/** A request the practice said it does not take (its refill and PA choices) is refused, naming why. */
export function refuseWhenPracticeDeclines(prefs: { refillRequestOption: string; paHandling: string }, category: ActionType) {
  const refusal = requestRefusedByPractice(category, prefs);
  // business-rule, not processing: the Task is well formed; the practice declines this kind of request.
  if (refusal) throw new FhirError(422, 'business-rule', refusal, ['Task.code']);
}

export async function assertPracticeTakes(tx: Executor, prescriptionId: string, category: ActionType) {
  const prefs = await records.practicePreferencesOfPrescription(tx, prescriptionId);
  if (prefs) refuseWhenPracticeDeclines(prefs, category);
}
