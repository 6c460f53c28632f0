import { normalizeError, type UserDetails } from '@hcp/contract';
import { useState } from 'react';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useDismissPriorAuth } from '../api/dismiss-prior-auth.ts';
import { useDecisionToast } from '../utils/use-decision-toast.ts';
import styles from './action-needed.module.css';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * Spec §3 keeps the ids of prescriptions whose prior authorization is simply "required": a prescriber who
 * will not pursue them dismisses them all at once (one all-or-nothing call), with the same notice as one.
 */
export function BulkDismiss({ ids, user }: { ids: string[]; user: UserDetails }) {
  const dismiss = useDismissPriorAuth();
  const { announce } = useDecisionToast();
  const [open, setOpen] = useState(false);
  if (ids.length === 0) return null;
  const run = (skip?: true) =>
    dismiss.mutate(
      { prescriptionIds: ids, ...(skip ? { skipPriorAuthDismissNotice: true } : {}) },
      { onSuccess: (result) => announce(`${ids.length} prior authorization request(s) dismissed.`, result.undo) },
    );
  return (
    <div className={styles.row}>
      <button
        type="button"
        className={styles.secondary}
        disabled={dismiss.isPending}
        onClick={() => (user.mdOfficeUserPrefs.skipPriorAuthDismissNotice ? run() : setOpen(true))}
      >
        Dismiss all {ids.length} “prior authorization required”
      </button>
      <FormAlert message={dismiss.error ? normalizeError(dismiss.error).message : null} />
      <ConfirmDialog
        open={open}
        title={`Dismiss ${ids.length} prior authorization requests?`}
        confirmLabel="Dismiss all"
        skipLabel="Don’t show this again"
        onCancel={() => setOpen(false)}
        onConfirm={(skip) => {
          setOpen(false);
          run(skip);
        }}
      >
        <p>The pharmacy will stop waiting for these prior authorizations and may not be able to fill the prescriptions.</p>
      </ConfirmDialog>
    </div>
  );
}
