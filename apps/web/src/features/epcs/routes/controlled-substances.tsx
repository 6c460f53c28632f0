import { ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { readSession } from '../../../lib/storage.ts';
import { useEpcs } from '../api/get-epcs.ts';
import { EpcsReportSection } from '../components/epcs-report.tsx';
import { PracticePermissions } from '../components/permissions.tsx';
import { Registrations } from '../components/registrations.tsx';
import styles from './controlled-substances.module.css';

/**
 * /controlled-substances (issue 48, decision 0059): electronic prescribing of controlled substances (EPCS) — a
 * prescriber's DEA registrations, who may sign controlled substances at each of the user's practices (granted and
 * revoked by two people), and the practice's daily report for those who hold permission.
 */
export default function ControlledSubstancesRoute() {
  const userId = readSession()?.userId ?? '';
  const epcs = useEpcs(userId);
  const data = epcs.data;
  return (
    <Page title="Controlled Substances">
      <p>
        Sign refill authorizations of controlled substances here in the portal (EPCS). You need a current DEA registration for the
        drug’s schedule and the practice’s state, permission granted by two people of your practice, and a passkey, security key
        or authenticator app: you sign with it and your password.
      </p>
      {epcs.isError ? (
        <p role="alert">Could not load your controlled substance settings. Please try again.</p>
      ) : !data ? (
        <p role="status">
          <Spinner /> Loading…
        </p>
      ) : (
        <>
          {data.strongFactors.length === 0 ? (
            <p className={styles.hint}>
              Signing and approving need a passkey, security key or authenticator app.{' '}
              <Link to={ROUTES.preferences}>Add one in Preferences</Link>.
            </p>
          ) : null}
          {data.isPrescriber ? <Registrations userId={userId} registrations={data.registrations} /> : null}
          {data.practices.length === 0 ? <p>You are not a member of a practice.</p> : null}
          {data.practices.map((practice) => (
            <PracticePermissions
              key={practice.id}
              userId={userId}
              practice={practice}
              factors={data.strongFactors}
              headed={data.practices.length > 1}
            />
          ))}
          {data.practices
            .filter((practice) => practice.prescribers.some((p) => p.isSelf && p.permission === 'granted'))
            .map((practice) => (
              <EpcsReportSection key={`report-${practice.id}`} practiceId={practice.id} practiceName={practice.name} />
            ))}
        </>
      )}
    </Page>
  );
}
