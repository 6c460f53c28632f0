import { type ReactNode, useEffect, useId, useRef } from 'react';
import styles from './dialog.module.css';

/**
 * Where focus goes when a dialog closes: back to what opened it; a dialog that opened by itself (the
 * tutorial after sign-in) or whose opener is gone would leave focus on <body>, so the page's heading
 * takes it instead and the next Tab starts in the page (issue 21).
 */
function returnFocus(opener: Element | null) {
  queueMicrotask(() => {
    if (opener instanceof HTMLElement && opener !== document.body && opener.isConnected) {
      if (document.activeElement !== opener) opener.focus();
      return;
    }
    const heading = document.querySelector<HTMLElement>('#main h1') ?? document.getElementById('main');
    heading?.focus({ preventScroll: true });
  });
}

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
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal?.();
      // A confirmation with nothing to fill in may start on its confirm button (marked data-autofocus): the
      // platform would start on the first button, often Cancel.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close?.();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      onClose={() => {
        returnFocus(opener.current);
        onClose();
      }}
      open={undefined}
    >
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
