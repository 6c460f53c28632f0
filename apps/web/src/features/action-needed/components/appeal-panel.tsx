import { mayChangePatientData, ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-needed.module.css';
import type { PanelProps } from './refill-panel.tsx';

/**
 * An appeal waiting on the prescriber. Their own appeals open already signed in (the portal session proves
 * who they are); anyone else in the practice sees who must act and how.
 */
export function AppealPanel({ entry, user, access }: PanelProps) {
  const own = user.details.mdStaffId !== null && user.details.mdStaffId === entry.doctor.doctorId;
  return (
    <section className={styles.panel} aria-labelledby="appeal-heading">
      <h2 id="appeal-heading">Appeal</h2>
      <p>
        The patient’s plan denied coverage of {drugLabel(entry.prescription)}. The pharmacy needs the prescriber to appeal the
        decision.
      </p>
      {own ? (
        <p>
          <Link to={`${ROUTES.appealsForm}?${new URLSearchParams({ prescription: entry.prescription.id })}`}>
            Open the appeal form
          </Link>
        </p>
      ) : (
        <>
          <p>
            Only {entry.doctor.name} attests and submits this appeal: from their own portal account, or with the link and access
            key the pharmacy sent them.
          </p>
          {/* The practice's people fill it in and attach the files for them (issue 23). */}
          {mayChangePatientData(access) ? (
            <p>
              <Link to={`${ROUTES.appealsForm}?${new URLSearchParams({ prescription: entry.prescription.id })}`}>
                Prepare the appeal for {entry.doctor.name}
              </Link>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
