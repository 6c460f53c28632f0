import {
  type ActionQueueItem,
  addIsoDays,
  authorizeChannelOf,
  BULK_DENIAL_REASONS,
  type BulkAction,
  type BulkActionResult,
  DAY_FIELD_FORMAT_MESSAGE,
  DENIAL_REASON_LABELS,
  normalizeError,
  POSTPONE_PRESET_DAYS,
  parseIsoDate,
  postponeDateProblem,
  splitForBulk,
} from '@hcp/contract';
import { useId, useState } from 'react';
import { DayField } from '../../../components/day-field.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useBulkAction } from '../api/bulk-action.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-queue.module.css';
import { patientName } from './patient-card.tsx';

const TITLES: Record<BulkAction, (n: number) => string> = {
  refillAuthorize: (n) => `Authorize ${n} refill ${n === 1 ? 'request' : 'requests'}?`,
  refillDeny: (n) => `Deny ${n} refill ${n === 1 ? 'request' : 'requests'}?`,
  refillPostpone: (n) => `Postpone ${n} refill ${n === 1 ? 'request' : 'requests'}?`,
  priorAuthDismiss: (n) => `Dismiss ${n} prior authorization ${n === 1 ? 'notice' : 'notices'}?`,
  mdSignatureReceived: (n) => `Mark the prescriber’s signature received for ${n}?`,
};
const CONFIRM: Record<BulkAction, string> = {
  refillAuthorize: 'Authorize and send',
  refillDeny: 'Deny and send',
  refillPostpone: 'Postpone',
  priorAuthDismiss: 'Dismiss',
  mdSignatureReceived: 'Mark received',
};

const describe = (item: ActionQueueItem) => `${patientName(item.patient)} · ${drugLabel(item)}`;

/**
 * What a bulk decision will do, before it does it (as every single decision shows what goes to the pharmacy,
 * decision 0027): the items, how each reaches the pharmacy, the ones left out and why; then the reason or day.
 */
export function BulkDialog({
  action,
  items,
  senderName,
  signable,
  today,
  onClose,
  onDone,
}: {
  action: BulkAction | null;
  items: ActionQueueItem[];
  senderName: string;
  /** Whether the user may sign an item (`signableBy`): the others are left out with why. */
  signable: (item: ActionQueueItem) => boolean;
  /** The server's day (the queue's answer): a postponement must be after it. */
  today: string;
  onClose: () => void;
  onDone: (result: BulkActionResult, decided: ActionQueueItem[]) => void;
}) {
  const mutation = useBulkAction();
  const [reason, setReason] = useState<(typeof BULK_DENIAL_REASONS)[number] | null>(null);
  // A postponement starts a week out (the first quick choice): Enter confirms it, or another day is picked or typed.
  const [day, setDay] = useState(() => addIsoDays(today, POSTPONE_PRESET_DAYS[0]));
  const [problem, setProblem] = useState<string | null>(null);
  const reasonName = useId();
  if (action === null) return null;
  const { takes, leftOut } = splitForBulk(action, items, signable);
  const byErx = takes.filter((i) => authorizeChannelOf(i.practice.prescribeVia, i.faxByRule) === 'erx').length;

  function confirm() {
    if (action === null || takes.length === 0) return;
    let postponeTo: string | undefined;
    if (action === 'refillDeny' && !reason) return setProblem('Choose the reason for the denial.');
    if (action === 'refillPostpone') {
      const why = parseIsoDate(day) ? postponeDateProblem(day, today) : DAY_FIELD_FORMAT_MESSAGE;
      if (why) return setProblem(why);
      postponeTo = day;
    }
    setProblem(null);
    mutation.mutate(
      {
        action,
        items: takes.map((i) => ({ id: i.id, version: i.version })),
        senderName,
        ...(action === 'refillDeny' && reason ? { reason } : {}),
        ...(postponeTo ? { postponeTo } : {}),
      },
      { onSuccess: (result) => onDone(result, takes) },
    );
  }

  return (
    <Dialog
      open
      title={TITLES[action](takes.length)}
      onClose={onClose}
      onSubmit={confirm}
      actions={
        <>
          <button type="button" className={styles.secondary} onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={styles.button}
            disabled={takes.length === 0 || mutation.isPending}
            // Nothing to fill in: Enter confirms what the dialog shows (a key press after a, and undo is there). With a
            // reason or a day to give, focus starts on it, and Enter there confirms too (the dialog is a form).
            data-autofocus={action === 'refillDeny' || action === 'refillPostpone' ? undefined : true}
          >
            {mutation.isPending ? 'Working…' : CONFIRM[action]}
          </button>
        </>
      }
    >
      {action === 'refillAuthorize' ? (
        <p>
          To the pharmacy{byErx > 0 ? `, by eRx: ${byErx}` : ''}
          {takes.length - byErx > 0 ? `, by fax: ${takes.length - byErx}` : ''}. Each with the refills and sig on file. Signed{' '}
          {senderName}.
        </p>
      ) : action === 'refillDeny' ? (
        <p>To the pharmacy, by fax: each denial with the reason below. Signed {senderName}.</p>
      ) : action === 'refillPostpone' ? (
        <p>Nothing is sent to the pharmacy: the requests come back on the day you choose.</p>
      ) : null}
      {takes.length > 0 ? (
        <ul className={styles.bulkList} aria-label="Included">
          {takes.map((item) => (
            <li key={item.id}>
              {describe(item)}
              {action === 'refillAuthorize'
                ? ` — ${item.refills} refill(s), “${item.sig ?? ''}”, by ${authorizeChannelOf(item.practice.prescribeVia, item.faxByRule) === 'erx' ? 'eRx' : 'fax'}`
                : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p>None of the selected items can take this decision.</p>
      )}
      {leftOut.length > 0 ? (
        <>
          <p className={styles.leftOutTitle}>Left out:</p>
          <ul className={styles.bulkList} aria-label="Left out">
            {leftOut.map(({ item, why }) => (
              <li key={item.id}>
                {describe(item)} — {why}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {action === 'refillDeny' ? (
        <fieldset className={styles.choices}>
          <legend>Reason</legend>
          {BULK_DENIAL_REASONS.map((value, index) => (
            <label key={value}>
              <input
                type="radio"
                name={reasonName}
                checked={reason === value}
                onChange={() => setReason(value)}
                data-autofocus={index === 0 ? true : undefined}
              />{' '}
              {DENIAL_REASON_LABELS[value]}
            </label>
          ))}
        </fieldset>
      ) : null}
      {action === 'refillPostpone' ? (
        <div className={styles.filterBox}>
          <DayField
            label="Postpone to"
            value={day}
            onChange={setDay}
            quickDays={POSTPONE_PRESET_DAYS}
            today={today}
            min={addIsoDays(today, 1)}
            data-autofocus
          />
        </div>
      ) : null}
      <FormAlert message={problem ?? (mutation.error ? normalizeError(mutation.error).message : null)} />
    </Dialog>
  );
}
