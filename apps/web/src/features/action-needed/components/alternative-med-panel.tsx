import { openHtmlWindow } from '../../../lib/print-window.ts';
import { getAlternativeMedsPrint } from '../api/get-alternative-meds-print.ts';
import { SUBSTITUTION_REASON_TEXT } from '../utils/labels.ts';
import styles from './action-needed.module.css';
import { AlternativeForm } from './alternative-form.tsx';
import { decisionTarget } from './decision-form.tsx';
import type { PanelProps } from './refill-panel.tsx';

export function AlternativeMedPanel({ entry, user, onDone }: PanelProps) {
  const rx = entry.prescription;
  return (
    <section className={styles.panel} aria-labelledby="alt-heading">
      <h2 id="alt-heading">Alternative medication</h2>
      <p>{SUBSTITUTION_REASON_TEXT[rx.substitutionStatus ?? ''] ?? 'The pharmacy proposes an alternative.'}</p>
      <AlternativeForm
        target={decisionTarget(rx, entry.patient)}
        user={user}
        onDone={onDone}
        extraActions={
          <button
            type="button"
            className={styles.secondary}
            onClick={() => void openHtmlWindow(() => getAlternativeMedsPrint(rx.id))}
          >
            Print request
          </button>
        }
      />
    </section>
  );
}
