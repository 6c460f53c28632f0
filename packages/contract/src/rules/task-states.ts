/**
 * The FHIR R4 Task state machine as the portal keeps it (issue 46): one table, read by the FHIR routes (a
 * pharmacy's update) and by the portal's own answers. What it guards is finality: `completed`, `cancelled`,
 * `failed`, `rejected` and `entered-in-error` are final, so a Task the prescriber answered cannot be cancelled or
 * reopened, and a withdrawn one cannot come back (a new request is a new Task). Among the open statuses a pharmacy's
 * own workflow moves freely (FHIR leaves the order of requested, received, accepted, ready, in-progress and on-hold
 * to the workflow).
 */

export const TASK_STATUSES = [
  'draft',
  'requested',
  'received',
  'accepted',
  'rejected',
  'ready',
  'cancelled',
  'in-progress',
  'on-hold',
  'failed',
  'completed',
  'entered-in-error',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_FINAL_STATUSES = ['completed', 'cancelled', 'failed', 'rejected', 'entered-in-error'] as const;
const OPEN: readonly TaskStatus[] = ['requested', 'received', 'accepted', 'ready', 'in-progress', 'on-hold'];

/** Where each status may go next (staying where it is is always allowed: a resend). */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  draft: ['requested', 'cancelled', 'entered-in-error'],
  requested: [...OPEN, 'rejected', 'cancelled', 'completed', 'failed', 'entered-in-error'],
  received: [...OPEN, 'rejected', 'cancelled', 'completed', 'failed', 'entered-in-error'],
  accepted: [...OPEN, 'cancelled', 'completed', 'failed', 'entered-in-error'],
  ready: [...OPEN, 'cancelled', 'completed', 'failed', 'entered-in-error'],
  'in-progress': [...OPEN, 'cancelled', 'completed', 'failed', 'entered-in-error'],
  'on-hold': [...OPEN, 'cancelled', 'completed', 'failed', 'entered-in-error'],
  rejected: [],
  cancelled: [],
  failed: [],
  completed: [],
  'entered-in-error': [],
};

export const isFinalTaskStatus = (status: string): boolean => (TASK_FINAL_STATUSES as readonly string[]).includes(status);

/** Why a Task cannot go from `from` to `to`, in words a pharmacy's engineer can act on; null when it can. */
export function taskTransitionProblem(from: TaskStatus, to: TaskStatus): string | null {
  if (from === to || TASK_TRANSITIONS[from].includes(to)) return null;
  if (from === 'completed')
    return `This Task was answered (completed), which is final: it cannot become ${to}. Send a new Task to ask again.`;
  if (isFinalTaskStatus(from))
    return `This Task is ${from}, which is final: it cannot become ${to}. Send a new Task to ask again.`;
  return `A Task cannot go from ${from} to ${to}.`;
}

/**
 * The status a prescriber's decision leaves its Task in (issue 46 part 3), read and pushed alike: a postponed refill
 * waits `on-hold` until its day, then reads as the pharmacy sent it again; every other answer — authorised,
 * denied, an alternative chosen, a PA dismissed or signed, chart notes sent, a phone corrected, an appeal submitted —
 * completes the Task (the prescriber did what was asked: decided), the decision itself in businessStatus and output.
 */
export const taskStatusAfterDecision = (event: string): 'on-hold' | 'completed' =>
  event === 'refill.postponed' ? 'on-hold' : 'completed';
