/** The one queue (issue 22): the rows of queue-repository.ts with their run-out days, most urgent first (contract rules). */
import {
  type ActionQueueItem,
  type ActionQueueQuery,
  type ActionQueueResponse,
  compareUrgency,
  runOutInDays,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { actionQueueRows, type QueueRow } from './queue-repository.ts';

function toItem(row: QueueRow, todayIso: string): ActionQueueItem {
  const { patientId, patientFirstName, patientLastName, patientDob, prescriberId, prescriberName, prescriberRole, ...rest } = row;
  const { practiceId, practiceName, practicePrescribeVia, ...fields } = rest;
  return {
    ...fields,
    patient: { id: patientId, firstName: patientFirstName, lastName: patientLastName, dob: patientDob },
    prescriber: { id: prescriberId, name: prescriberName, role: prescriberRole },
    practice: { id: practiceId, name: practiceName, prescribeVia: practicePrescribeVia },
    runOutInDays: runOutInDays(row.lastFilledOn, row.daysSupply, todayIso),
  };
}

export function actionQueue(deps: { db: Database; todayIso: () => string }) {
  return {
    async queue(ctx: SignedInContext, query: ActionQueueQuery): Promise<ActionQueueResponse> {
      const today = deps.todayIso();
      const rows = await actionQueueRows(deps.db, { ...ctx, ...query, todayIso: today });
      return { today, items: rows.map((row) => toItem(row, today)).sort(compareUrgency) };
    },
  };
}
