import { type ReactNode, useId, useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import styles from './action-needed.module.css';

/**
 * A confirmation with a "don't ask again" choice (the eRx confirmation and the prior-auth dismiss
 * notice). `onConfirm` receives true when the user ticked it, else undefined (the preference is then
 * left as it is).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  skipLabel,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  skipLabel: string;
  onCancel: () => void;
  onConfirm: (skipNextTime: true | undefined) => void;
}) {
  const skipId = useId();
  const [skip, setSkip] = useState(false);
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className={styles.secondary} onClick={onCancel}>
            Cancel
          </button>
          {/* It starts on its confirm button: the user asked for this and reads what goes; Enter sends, Escape cancels. */}
          <button type="button" className={styles.button} data-autofocus onClick={() => onConfirm(skip ? true : undefined)}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
      <div className={styles.choice}>
        <input id={skipId} type="checkbox" checked={skip} onChange={(e) => setSkip(e.target.checked)} />
        <label htmlFor={skipId}>{skipLabel}</label>
      </div>
    </Dialog>
  );
}
