import { mayTakeAction } from '@hcp/contract';
import { openHtmlWindow } from '../../../lib/print-window.ts';
import { getAlternativeMedsPrint } from '../api/get-alternative-meds-print.ts';
import { SUBSTITUTION_REASON_TEXT } from '../utils/labels.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-needed.module.css';
import { AlternativeForm } from './alternative-form.tsx';
import { decisionTarget } from './decision-form.tsx';
import { patientName } from './patient-card.tsx';
import { PrepareAlternativeForm, PreparedBox } from './prepared-decision.tsx';
import type { PanelProps } from './refill-panel.tsx';

export function AlternativeMedPanel({ entry, user, onDone, access }: PanelProps) {
  const rx = entry.prescription;
  // Choosing is the prescriber's; staff prepare the choice for their signature (decisions 0020, 0039).
  const canSign = mayTakeAction(access, 'alternativeMed');
  const about = `${drugLabel(rx)} for ${patientName(entry.patient)}`;
  return (
    <section className={styles.panel} aria-labelledby="alt-heading">
      <h2 id="alt-heading">Alternative medication</h2>
      <p>{SUBSTITUTION_REASON_TEXT[rx.substitutionStatus ?? ''] ?? 'The pharmacy proposes an alternative.'}</p>
      {rx.prepared ? (
        <PreparedBox prescriptionId={rx.id} prepared={rx.prepared} canSign={canSign} user={user} about={about} onDone={onDone} />
      ) : null}
      {canSign ? (
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
      ) : rx.prepared || !mayTakeAction(access, 'refillPostponed') ? (
        <p className={styles.notice}>A prescriber of the practice chooses the alternative medication.</p>
      ) : (
        <PrepareAlternativeForm prescriptionId={rx.id} alternatives={rx.alternativeMeds} onDone={(message) => onDone(message)} />
      )}
    </section>
  );
}
