import type { KeyboardEvent, ReactNode } from 'react';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-needed.module.css';
import { patientName } from './patient-card.tsx';

/** The prescription a decision is for, as its confirmation names it: the same lines on the detail page and in the queue. */
export function decisionTarget(
  rx: {
    id: string;
    priorAuthStatus: string | null;
    alternativeMeds: string[];
  } & Parameters<typeof drugLabel>[0],
  patient: Parameters<typeof patientName>[0],
) {
  return {
    prescriptionId: rx.id,
    priorAuthStatus: rx.priorAuthStatus,
    alternativeMeds: rx.alternativeMeds,
    drug: drugLabel(rx),
    patient: patientName(patient),
  };
}

/** Ctrl+Enter (⌘+Enter) sends a decision's form from any of its fields; Escape closes it where it can be closed. */
export const decisionFormKeys = (submit: () => unknown, cancel?: () => void) => (event: KeyboardEvent<HTMLFormElement>) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void submit();
  } else if (event.key === 'Escape' && cancel) {
    event.preventDefault();
    cancel();
  }
};

/** The decision's send button, and Cancel where the form can be closed (in the queue). */
export function DecisionButtons({
  label,
  busy,
  onCancel,
  children,
}: {
  label: string;
  busy: boolean;
  onCancel?: (() => void) | undefined;
  children?: ReactNode;
}) {
  return (
    <div className={styles.row}>
      <button type="submit" className={styles.button} disabled={busy}>
        {label}
      </button>
      {children}
      {onCancel ? (
        <button type="button" className={styles.secondary} onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}
