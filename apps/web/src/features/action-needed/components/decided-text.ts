import type { ActionQueueItem, BulkAction, BulkActionResult } from '@hcp/contract';
import { drugLabel } from '../utils/special-drugs.ts';
import { patientName } from './patient-card.tsx';

const DONE: Record<BulkAction, string> = {
  refillAuthorize: 'Refill authorized',
  refillDeny: 'Refill denied',
  refillPostpone: 'Refill postponed',
  priorAuthDismiss: 'Prior authorization dismissed',
  mdSignatureReceived: 'Prescriber’s signature marked received',
};

/**
 * What a queue decision did, as the screen showed it (issue 47): one item by its patient and drug, several by their
 * number, and how many were left out. Spoken by the live region and shown in the toast.
 */
export function decidedText(action: BulkAction, result: BulkActionResult, items: ActionQueueItem[]): string {
  const done = result.results.filter((r) => r.status === 'done').map((r) => r.id);
  const leftOut = result.refused > 0 ? ` ${result.refused} left out.` : '';
  if (done.length === 0) return `Nothing was decided.${leftOut}`;
  const only = done.length === 1 ? items.find((item) => item.id === done[0]) : undefined;
  const what = only ? `${patientName(only.patient)}: ${drugLabel(only)}` : `${done.length} items`;
  const plural = done.length > 1 ? DONE[action].replace(/^Refill /, 'Refills ') : DONE[action];
  return `${only ? DONE[action] : plural} for ${what}.${leftOut}`;
}
