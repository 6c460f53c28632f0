import {
  type ActionQueueItem,
  BULK_ACTION_RULE,
  type BulkAction,
  type BulkActionResult,
  type ClinicalAccess,
  maySignItem,
  mayTakeAction,
  type SignerLike,
  splitForBulk,
} from '@hcp/contract';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-queue.module.css';
import { patientName } from './patient-card.tsx';

const LABELS: Record<BulkAction, string> = {
  refillAuthorize: 'Authorize',
  refillDeny: 'Deny…',
  refillPostpone: 'Postpone…',
  priorAuthDismiss: 'Dismiss PA notices',
  mdSignatureReceived: 'MD signature received',
};

/** Whether the user may sign a queue item (the practice may keep it to its prescriber and whoever covers them). */
export const signableBy =
  (user: SignerLike | undefined) =>
  (item: ActionQueueItem): boolean =>
    maySignItem(user, { practiceId: item.practice.id, prescriberId: item.prescriber.id });

/** The bulk decisions this user may take that at least one of `items` can take. */
export function bulkChoices(
  access: ClinicalAccess | undefined,
  items: ActionQueueItem[],
  user: SignerLike | undefined,
): BulkAction[] {
  if (!access) return [];
  return (Object.keys(LABELS) as BulkAction[]).filter(
    (action) => mayTakeAction(access, BULK_ACTION_RULE[action]) && splitForBulk(action, items, signableBy(user)).takes.length > 0,
  );
}

/** The decisions offered for the selection (keys a, d, p for the first three). */
export function BulkBar({ choices, onChoose }: { choices: BulkAction[]; onChoose: (action: BulkAction) => void }) {
  if (choices.length === 0) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of buttons, not a form field group
    <div role="group" aria-label="Decide the selected items" className={styles.bulkBar}>
      {choices.map((action) => (
        <button key={action} type="button" className={styles.secondary} aria-haspopup="dialog" onClick={() => onChoose(action)}>
          {LABELS[action]}
        </button>
      ))}
    </div>
  );
}

/** What the last bulk decision did, item by item: how many were done, and each one left out with why. */
export function BulkResults({
  result,
  items,
  onDismiss,
}: {
  result: BulkActionResult;
  items: ActionQueueItem[];
  onDismiss: () => void;
}) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const refused = result.results.filter((r) => r.status === 'refused');
  return (
    <section className={styles.results} aria-labelledby="bulk-results">
      <h2 id="bulk-results" className={styles.title}>
        {result.done} done{refused.length > 0 ? `, ${refused.length} left out` : ''}
      </h2>
      {refused.length > 0 ? (
        <ul className={styles.bulkList}>
          {refused.map((r) => {
            const item = byId.get(r.id);
            return (
              <li key={r.id}>
                {item ? `${patientName(item.patient)} · ${drugLabel(item)}` : 'An item'}: {r.reason}
              </li>
            );
          })}
        </ul>
      ) : null}
      <button type="button" className={styles.secondary} onClick={onDismiss}>
        Close this summary
      </button>
    </section>
  );
}
