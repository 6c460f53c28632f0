import { type Appeal, formatApiDate } from '@hcp/contract';
import styles from './appeals.module.css';

/** What the plan denied and what it needs, as the pharmacy sent it. */
export function AppealSummary({ appeal }: { appeal: Appeal }) {
  const rows: [string, string | null][] = [
    ['Patient', appeal.patientName],
    ['Date of birth', formatApiDate(appeal.patientDob)],
    ['Medication', [appeal.drugName, appeal.strength].filter(Boolean).join(' ')],
    ['Prescriber', appeal.prescriberName],
    ['Insurance plan', appeal.payer],
    ['Denied on', appeal.denialDate ? formatApiDate(appeal.denialDate) : null],
    ['Reason for denial', appeal.denialReason],
    ['What the plan needs', appeal.whatIsNeeded],
  ];
  return (
    <section aria-labelledby="appeal-summary" className={styles.summary}>
      <h2 id="appeal-summary">Denied prescription</h2>
      <dl className={styles.facts}>
        {rows
          .filter((row): row is [string, string] => Boolean(row[1]))
          .map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
    </section>
  );
}
