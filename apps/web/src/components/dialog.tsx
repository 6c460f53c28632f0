import { type ReactNode, useEffect, useId, useRef } from 'react';
import styles from './dialog.module.css';

/**
 * A modal on the platform's <dialog>: showModal() makes the rest of the page inert, traps focus, closes
 * on Escape and returns focus to the opener, so no focus-trap library is needed.
 */
export function Dialog({
  open,
  title,
  children,
  onClose,
  actions,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  actions: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close?.();
  }, [open]);
  return (
    <dialog ref={ref} className={styles.dialog} aria-labelledby={titleId} onClose={onClose} open={undefined}>
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
          <div className={styles.actions}>{actions}</div>
        </>
      ) : null}
    </dialog>
  );
}
