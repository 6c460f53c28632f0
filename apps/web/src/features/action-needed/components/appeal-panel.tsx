import { ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import styles from './action-needed.module.css';
import type { PanelProps } from './refill-panel.tsx';

export function AppealPanel({ entry }: PanelProps) {
  return (
    <section className={styles.panel} aria-labelledby="appeal-heading">
      <h2 id="appeal-heading">Appeal</h2>
      <p>
        The patient’s plan denied coverage of {entry.prescription.drugName}. The pharmacy needs the prescriber to appeal the
        decision.
      </p>
      <p>
        <Link to={ROUTES.appealsForm}>Open the appeal form</Link>
      </p>
    </section>
  );
}
