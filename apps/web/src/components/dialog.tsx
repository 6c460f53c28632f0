import { type ReactNode, useEffect, useId, useRef } from 'react';
import { focusWhenReady } from '../lib/focus.ts';
import styles from './dialog.module.css';

/**
 * Where focus goes when a dialog closes or is taken away (the one focus rule, lib/focus.ts): back to what opened it;
 * a dialog that opened by itself (the tutorial after sign-in) or whose opener is gone gives it to the page's heading,
 * so the next Tab starts in the page (issues 21, 47). A feature that asked for a place of its own (the next item
 * after a decision) keeps it: this request is weak.
 */
function returnFocus(opener: Element | null) {
  focusWhenReady(() => (opener instanceof HTMLElement && opener !== document.body ? opener : null), { weak: true });
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
  onSubmit,
  startAtTitle = false,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  onClose: () => void;
  actions: ReactNode;
  /**
   * The dialog's confirm: given, the content is a form, so Enter in a field or on a radio confirms (its confirm
   * button is `type="submit"`), as in any form (issue 47).
   */
  onSubmit?: () => void;
  /**
   * A dialog to read (a list of keys) starts at its title, scrolled to its top: the platform would focus its first
   * button, at the bottom, scrolling the title out of view (issue 47).
   */
  startAtTitle?: boolean;
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
      if (startAtTitle) {
        dialog.querySelector<HTMLElement>('h2')?.focus();
        dialog.scrollTop = 0;
      }
    }
    if (!open && dialog.open) dialog.close?.();
  }, [open, startAtTitle]);
  // Taken off the page while open (its parent decided it is done): no close event comes, so focus is returned here.
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) returnFocus(opener.current);
    };
  }, []);
  const body = (
    <>
      <h2 id={titleId} tabIndex={startAtTitle ? -1 : undefined}>
        {title}
      </h2>
      {children}
      <div className={styles.actions}>{actions}</div>
    </>
  );
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
      {!open ? null : onSubmit ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          {body}
        </form>
      ) : (
        body
      )}
    </dialog>
  );
}
