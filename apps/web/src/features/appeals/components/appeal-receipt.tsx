import { APPEAL_SLOT_LABELS, type Appeal, appealReference, formatDateTime, ROUTES } from '@hcp/contract';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import controls from '../../../components/controls.module.css';
import { readSession } from '../../../lib/storage.ts';
import { formatBytes } from '../utils/read-file.ts';
import styles from './appeals.module.css';

/** The final receipt: what was sent, when, and its reference; printable. */
export function AppealReceipt({ appeal }: { appeal: Appeal }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const signedIn = readSession() !== null;
  return (
    <section aria-labelledby="appeal-receipt" className={styles.receipt}>
      <h2 id="appeal-receipt" ref={heading} tabIndex={-1}>
        Appeal submitted
      </h2>
      <p>
        Thank you. The pharmacy has your appeal and sends it to {appeal.payer ?? 'the patient’s plan'}. They will let the patient
        know the plan’s decision.
      </p>
      <dl className={styles.facts}>
        <div>
          <dt>Reference</dt>
          <dd>{appealReference(appeal.id)}</dd>
        </div>
        <div>
          <dt>Submitted</dt>
          <dd>{appeal.submittedAt ? formatDateTime(appeal.submittedAt) : ''}</dd>
        </div>
        <div>
          <dt>Patient</dt>
          <dd>{appeal.patientName}</dd>
        </div>
        <div>
          <dt>Medication</dt>
          <dd>{[appeal.drugName, appeal.strength].filter(Boolean).join(' ')}</dd>
        </div>
        <div>
          <dt>Urgency</dt>
          <dd>{appeal.draft.urgency === 'expedited' ? 'Expedited' : 'Standard'}</dd>
        </div>
      </dl>
      <h3>Attachments</h3>
      {appeal.files.length === 0 ? (
        <p>No attachments.</p>
      ) : (
        <ul>
          {appeal.files.map((f) => (
            <li key={f.slot}>
              {APPEAL_SLOT_LABELS[f.slot]}: {f.originalName} ({formatBytes(f.sizeBytes)})
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <button type="button" className={controls.secondary} onClick={() => window.print()}>
          Print receipt
        </button>
        {signedIn ? <Link to={ROUTES.actionNeeded}>Back to Action Needed</Link> : null}
      </div>
    </section>
  );
}
