import { openHtmlWindow } from '../../../lib/print-window.ts';
import { getAlternativeMedsPrint } from '../api/get-alternative-meds-print.ts';
import { SUBSTITUTION_REASON_TEXT } from '../utils/labels.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-needed.module.css';
import { AlternativeForm } from './alternative-form.tsx';
import { patientName } from './patient-card.tsx';
import type { PanelProps } from './refill-panel.tsx';

export function AlternativeMedPanel({ entry, user, onDone }: PanelProps) {
  const rx = entry.prescription;
  return (
    <section className={styles.panel} aria-labelledby="alt-heading">
      <h2 id="alt-heading">Alternative medication</h2>
      <p>{SUBSTITUTION_REASON_TEXT[rx.substitutionStatus ?? ''] ?? 'The pharmacy proposes an alternative.'}</p>
      <AlternativeForm
        target={{
          prescriptionId: rx.id,
          alternativeMeds: rx.alternativeMeds,
          drug: drugLabel(rx),
          patient: patientName(entry.patient),
        }}
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
