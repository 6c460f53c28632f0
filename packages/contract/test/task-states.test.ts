import { describe, expect, it } from 'vitest';
import {
  isFinalTaskStatus,
  TASK_FINAL_STATUSES,
  TASK_INBOUND_STATUSES,
  TASK_STATUSES,
  TASK_TRANSITIONS,
  taskTransitionProblem,
} from '../src/index.ts';

describe('the Task state machine', () => {
  it('keeps final statuses final: nothing leaves them but a resend of the same', () => {
    for (const from of TASK_FINAL_STATUSES) {
      expect(TASK_TRANSITIONS[from]).toEqual([]);
      for (const to of TASK_STATUSES) {
        expect(taskTransitionProblem(from, to) === null, `${from} -> ${to}`).toBe(from === to);
      }
    }
  });

  it('lets every open status be withdrawn, answered or marked in error, and names what it refuses', () => {
    const open = TASK_STATUSES.filter((s) => !isFinalTaskStatus(s) && s !== 'draft');
    for (const from of open) {
      for (const to of ['cancelled', 'completed', 'entered-in-error', ...open] as const) {
        expect(taskTransitionProblem(from, to), `${from} -> ${to}`).toBeNull();
      }
    }
    expect(taskTransitionProblem('completed', 'cancelled')).toBe(
      'This Task was answered (completed), which is final: it cannot become cancelled. Send a new Task to ask again.',
    );
    expect(taskTransitionProblem('cancelled', 'requested')).toContain('This Task is cancelled, which is final');
    expect(taskTransitionProblem('draft', 'completed')).toBe('A Task cannot go from draft to completed.');
  });

  it('covers every status a pharmacy may send, and only FHIR R4 statuses', () => {
    for (const status of TASK_INBOUND_STATUSES) expect(TASK_STATUSES).toContain(status);
    expect(Object.keys(TASK_TRANSITIONS).sort()).toEqual([...TASK_STATUSES].sort());
    for (const targets of Object.values(TASK_TRANSITIONS)) for (const to of targets) expect(TASK_STATUSES).toContain(to);
  });
});
