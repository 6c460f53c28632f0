import { useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import styles from './manage-comms.module.css';

/**
 * Delete with a confirmation. A refusal (open prescriptions, active accounts) stays in the dialog with the
 * server's reason, so the person learns what to do first.
 */
export function DeleteButton({
  label,
  title,
  explanation,
  onDelete,
}: {
  label: string;
  title: string;
  explanation: string;
  onDelete: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setProblem(null);
  };
  return (
    <>
      <button type="button" className={styles.danger} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Dialog
        open={open}
        title={title}
        onClose={close}
        actions={
          <>
            <button
              type="button"
              className={styles.danger}
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                setProblem(null);
                try {
                  await onDelete();
                  setOpen(false);
                } catch (error) {
                  setProblem(failureText(error));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {busy ? 'Deleting…' : label}
            </button>
            <button type="button" className={styles.secondary} onClick={close}>
              Cancel
            </button>
          </>
        }
      >
        <p>{explanation}</p>
        <FormAlert message={problem} />
      </Dialog>
    </>
  );
}
