/**
 * Task <-> one Action Needed item: `code` the category, `focus` the prescription (MedicationRequest), `input` what
 * the prescriber needs to decide, `businessStatus` the pharmacy's own status. The status read back is the
 * portal's: a Task whose item the prescriber answered reads `completed`.
 */
import {
  type ActionType,
  PRIOR_AUTH_METHODS,
  PRIOR_AUTH_STATUSES,
  parseIsoDate,
  TASK_ACKNOWLEDGED_STATUS,
  TASK_CLOSING_STATUSES,
  TASK_CODE_CATEGORY,
  TASK_CODE_SYSTEM,
  TASK_CODES,
  TASK_INBOUND_STATUSES,
  TASK_INPUT_SYSTEM,
  TASK_SUBSTITUTION_REASONS,
  type TaskCode,
  type TaskInboundStatus,
  type TaskInputCode,
  type TaskStatus,
  taskStatusAfterDecision,
} from '@hcp/contract';
import type { Task, TaskInput, TaskOutput } from '@medplum/fhirtypes';
import { answeredTask, type DecisionFacts, outputOf } from './answer.ts';
import { type BusinessIdentifier, businessIdentifier, meta, referencedId, unprocessable } from './common.ts';

/** The inputs the portal keeps, by name (stored as JSON on the task row). */
export interface TaskInputs {
  paStatus?: string;
  paMethod?: string;
  substitutionReason?: string;
  alternatives?: string[];
  wrongPhone?: string;
  payer?: string;
  denialReason?: string;
  denialDate?: string;
  whatIsNeeded?: string;
  clinicalNotesRequired?: string;
  lastFillDate?: string;
  refillsRemaining?: string;
  paExpires?: string;
}

export interface TaskFields {
  code: TaskCode;
  category: ActionType;
  status: TaskInboundStatus;
  prescriptionId: string;
  patientId: string | null;
  businessStatus: string | null;
  inputs: TaskInputs;
  note: string | null;
}

export interface TaskRow {
  id: string;
  category: ActionType;
  status: string;
  businessStatus: string | null;
  input: TaskInputs;
  note: string | null;
  prescriptionId: string;
  patientId: string;
  prescriberId: string;
  /** Whether the prescription still shows this item on Action Needed (a postponed refill too: it comes back). */
  itemOpen: boolean;
  /** A refill request the prescriber postponed to a later day than today: that day (YYYY-MM-DD), else null. */
  postponedUntil: string | null;
  /** The newest decision on this Task's prescription and category since the Task came, not undone; else null. */
  decision: DecisionFacts | null;
  /** An appeal Task's appeal: when its link stops working, and whether the prescriber submitted it. */
  appealExpiresAt: Date | null;
  appealSubmitted: boolean | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  identifiers: BusinessIdentifier[];
}

export const CODE_OF_CATEGORY = Object.fromEntries(
  Object.entries(TASK_CODE_CATEGORY).map(([code, category]) => [category, code]),
) as Record<ActionType, TaskCode>;
const INPUT_KEYS: Record<TaskInputCode, keyof TaskInputs> = {
  'pa-status': 'paStatus',
  'pa-method': 'paMethod',
  'substitution-reason': 'substitutionReason',
  alternative: 'alternatives',
  'wrong-phone': 'wrongPhone',
  payer: 'payer',
  'denial-reason': 'denialReason',
  'denial-date': 'denialDate',
  'what-is-needed': 'whatIsNeeded',
  'clinical-notes-required': 'clinicalNotesRequired',
  'last-fill-date': 'lastFillDate',
  'refills-remaining': 'refillsRemaining',
  'pa-expires': 'paExpires',
};
const VALUE_TYPE: Record<keyof TaskInputs, 'valueCode' | 'valueString' | 'valueDate' | 'valueBoolean' | 'valueInteger'> = {
  paStatus: 'valueCode',
  paMethod: 'valueCode',
  substitutionReason: 'valueCode',
  alternatives: 'valueString',
  wrongPhone: 'valueString',
  payer: 'valueString',
  denialReason: 'valueString',
  denialDate: 'valueDate',
  whatIsNeeded: 'valueString',
  clinicalNotesRequired: 'valueBoolean',
  lastFillDate: 'valueDate',
  refillsRemaining: 'valueInteger',
  paExpires: 'valueDate',
};

const oneOf = <T extends string>(values: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (values as readonly string[]).includes(value);

function readInputs(inputs: readonly TaskInput[] | undefined): TaskInputs {
  const read: TaskInputs = {};
  (inputs ?? []).forEach((input, index) => {
    const expression = `Task.input[${index}]`;
    const code = input.type?.coding?.find((c) => c.system === TASK_INPUT_SYSTEM)?.code;
    if (!code) return; // Inputs of other systems are the pharmacy's own; we keep only ours.
    const key = (INPUT_KEYS as Record<string, keyof TaskInputs | undefined>)[code];
    if (!key) unprocessable(`${expression}.type`, `${expression}.type: unknown input ${code}.`);
    const raw = input[VALUE_TYPE[key]];
    const value = typeof raw === 'boolean' || typeof raw === 'number' ? String(raw) : raw;
    if (typeof value !== 'string' || !value.trim()) {
      unprocessable(`${expression}.${VALUE_TYPE[key]}`, `${expression} (${code}) needs ${VALUE_TYPE[key]}.`);
    }
    if (value.length > 500) unprocessable(`${expression}.${VALUE_TYPE[key]}`, `${expression} (${code}) is too long.`);
    if (key === 'alternatives') read.alternatives = [...(read.alternatives ?? []), value.trim()];
    else read[key] = value.trim();
  });
  return read;
}

/** The decision facts any Task may carry: real days (a fill not in the future) and a whole number of refills. */
function checkFactInputs(inputs: TaskInputs) {
  const today = new Date().toISOString().slice(0, 10);
  if (inputs.lastFillDate !== undefined && (parseIsoDate(inputs.lastFillDate) === null || inputs.lastFillDate > today)) {
    unprocessable('Task.input', 'Input last-fill-date must be a past date as YYYY-MM-DD.');
  }
  if (inputs.paExpires !== undefined && parseIsoDate(inputs.paExpires) === null) {
    unprocessable('Task.input', 'Input pa-expires must be a date as YYYY-MM-DD.');
  }
  if (inputs.refillsRemaining !== undefined && !/^(\d|[1-9]\d)$/.test(inputs.refillsRemaining)) {
    unprocessable('Task.input', 'Input refills-remaining must be a whole number from 0 to 99.');
  }
}

/** The rules each category adds (what the prescriber needs to decide), naming the input that is missing. */
function checkCategoryInputs(code: TaskCode, inputs: TaskInputs) {
  checkFactInputs(inputs);
  if (code === 'prior-authorization') {
    if (!oneOf(PRIOR_AUTH_STATUSES, inputs.paStatus)) {
      unprocessable('Task.input', `A prior-authorization Task needs input pa-status, one of ${PRIOR_AUTH_STATUSES.join(', ')}.`);
    }
    if (inputs.paMethod !== undefined && !oneOf(PRIOR_AUTH_METHODS, inputs.paMethod)) {
      unprocessable('Task.input', `Input pa-method must be one of ${PRIOR_AUTH_METHODS.join(', ')}.`);
    }
  }
  if (code === 'substitution') {
    if (!inputs.substitutionReason || !TASK_SUBSTITUTION_REASONS[inputs.substitutionReason]) {
      unprocessable(
        'Task.input',
        `A substitution Task needs input substitution-reason, one of ${Object.keys(TASK_SUBSTITUTION_REASONS).join(', ')}.`,
      );
    }
    if (!inputs.alternatives?.length || inputs.alternatives.length > 10) {
      unprocessable('Task.input', 'A substitution Task needs 1 to 10 alternative inputs (the drugs offered).');
    }
  }
  if (code === 'appeal' && (!inputs.payer || !inputs.denialReason)) {
    unprocessable('Task.input', 'An appeal Task needs the inputs payer and denial-reason (what the prescriber appeals).');
  }
  if (code === 'phone-exception' && inputs.wrongPhone !== undefined && inputs.wrongPhone.replace(/\D/g, '').length !== 10) {
    unprocessable('Task.input', 'Input wrong-phone must be a 10-digit US phone number.');
  }
}

export function fromTask(resource: Task): { identifier: BusinessIdentifier; fields: TaskFields } {
  const identifier = businessIdentifier(resource.identifier, 'Task.identifier');
  const status = resource.status;
  if (!oneOf(TASK_INBOUND_STATUSES, status)) {
    unprocessable(
      'Task.status',
      `Task.status must be one of ${TASK_INBOUND_STATUSES.join(', ')} (completed: only once the prescriber answered it).`,
    );
  }
  if (resource.intent !== 'order') unprocessable('Task.intent', 'Task.intent must be order.');
  const code = resource.code?.coding?.find((c) => c.system === TASK_CODE_SYSTEM)?.code;
  if (!oneOf(TASK_CODES, code)) {
    unprocessable('Task.code', `Task.code needs a coding of ${TASK_CODE_SYSTEM}: one of ${TASK_CODES.join(', ')}.`);
  }
  const prescriptionId = referencedId(resource.focus, 'MedicationRequest', 'Task.focus');
  const patientId = resource.for ? referencedId(resource.for, 'Patient', 'Task.for') : null;
  const inputs = readInputs(resource.input);
  checkCategoryInputs(code, inputs);
  const businessStatus = resource.businessStatus?.text ?? resource.businessStatus?.coding?.[0]?.code ?? null;
  if (businessStatus && businessStatus.length > 200) unprocessable('Task.businessStatus', 'Task.businessStatus is too long.');
  const note = resource.note?.[0]?.text ?? null;
  if (note && note.length > 2000) unprocessable('Task.note', 'Task.note is too long.');
  return {
    identifier,
    fields: { code, category: TASK_CODE_CATEGORY[code], status, prescriptionId, patientId, businessStatus, inputs, note },
  };
}

export const isClosing = (status: string) => (TASK_CLOSING_STATUSES as readonly string[]).includes(status);

/**
 * The status a Task is in: the pharmacy's while the item waits (or once it withdrew it), on-hold while the
 * prescriber's postponement runs, else completed — the prescriber answered (contract taskStatusAfterDecision). The
 * read mapping shows it and the state machine (contract, task-states.ts) starts from it.
 */
export const effectiveStatus = (row: Pick<TaskRow, 'status' | 'itemOpen' | 'postponedUntil'>): TaskStatus => {
  if (isClosing(row.status)) return row.status as TaskStatus;
  if (!row.itemOpen) return 'completed';
  return (row.postponedUntil ? 'on-hold' : row.status) as TaskStatus;
};

/** The decision a Task reads as answered by: the one that put it where it is (none while the request waits). */
function answerOf(row: TaskRow, status: TaskStatus): DecisionFacts | null {
  const { decision } = row;
  if (!decision || isClosing(row.status) || (status !== 'completed' && status !== 'on-hold')) return null;
  // A postponement that ended, or an item closed by something other than this decision, is not its answer.
  return taskStatusAfterDecision(decision.event) === status ? decision : null;
}

export function toTask(row: TaskRow): Task {
  const task = plainTask(row);
  const answer = answerOf(row, task.status as TaskStatus);
  // Once the pharmacy wrote the Task again after the answer (it completed it: acknowledged), its businessStatus is its own.
  return answer ? answeredTask(task, answer, { ownBusinessStatus: row.status === TASK_ACKNOWLEDGED_STATUS }) : task;
}

function plainTask(row: TaskRow): Task {
  const code = CODE_OF_CATEGORY[row.category];
  const status = effectiveStatus(row);
  const inputs: TaskInput[] = Object.entries(INPUT_KEYS).flatMap(([inputCode, key]) => {
    const value = row.input[key];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return values.map((v) => ({
      type: { coding: [{ system: TASK_INPUT_SYSTEM, code: inputCode }] },
      [VALUE_TYPE[key]]: VALUE_TYPE[key] === 'valueInteger' ? Number(v) : v,
    }));
  });
  const output: TaskOutput[] =
    row.appealSubmitted === null
      ? []
      : [
          outputOf('appeal-status', { valueCode: row.appealSubmitted ? 'submitted' : 'waiting-for-prescriber' }),
          ...(row.appealExpiresAt ? [outputOf('appeal-expires', { valueDateTime: row.appealExpiresAt.toISOString() })] : []),
        ];
  return {
    resourceType: 'Task',
    id: row.id,
    meta: meta(row.updatedAt, row.version),
    identifier: row.identifiers.map(({ system, value }) => ({ system, value })),
    status: status as Task['status'],
    intent: 'order',
    code: { coding: [{ system: TASK_CODE_SYSTEM, code }] },
    focus: { reference: `MedicationRequest/${row.prescriptionId}` },
    for: { reference: `Patient/${row.patientId}` },
    owner: { reference: `Practitioner/${row.prescriberId}` },
    authoredOn: row.createdAt.toISOString(),
    lastModified: row.updatedAt.toISOString(),
    ...(row.businessStatus ? { businessStatus: { text: row.businessStatus } } : {}),
    ...(inputs.length ? { input: inputs } : {}),
    ...(row.note ? { note: [{ text: row.note }] } : {}),
    ...(output.length ? { output } : {}),
  };
}
