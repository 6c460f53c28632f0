import { isMdoUser, ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { readSession } from '../../../lib/storage.ts';
import { ProfileForm } from '../components/profile-form.tsx';
import { SecuritySettings } from '../components/security-settings.tsx';

/** /preferences: the signed-in user's own settings and security (password, remembered devices). */
export default function PreferencesRoute() {
  const userId = readSession()?.userId ?? null;
  const user = useUserDetails(userId);
  return (
    <Page title="Preferences">
      {user.data ? (
        <ProfileForm key={user.data.userId} user={user.data} />
      ) : user.isError ? (
        <p role="alert">Could not load your preferences. Please try again.</p>
      ) : (
        <p role="status">
          <Spinner /> Loading…
        </p>
      )}
      {user.data && isMdoUser(user.data) ? (
        <section aria-labelledby="standing-rules-link-title">
          <h2 id="standing-rules-link-title">Refill requests you should not see again</h2>
          <p>
            <Link to={ROUTES.standingRules}>Standing Rules</Link>: answer refill requests for a discontinued drug, or for a
            patient who needs a visit first, before they reach your list.
          </p>
        </section>
      ) : null}
      {user.data && isMdoUser(user.data) ? (
        <section aria-labelledby="covering-link-title">
          <h2 id="covering-link-title">Who signs for whom</h2>
          <p>
            <Link to={ROUTES.coveringPrescribers}>Covering Prescribers</Link>: who signs for whom, and who covers for a prescriber
            while they are away.
          </p>
        </section>
      ) : null}
      {user.data && isMdoUser(user.data) ? (
        <section aria-labelledby="epcs-link-title">
          <h2 id="epcs-link-title">Controlled substances</h2>
          <p>
            <Link to={ROUTES.controlledSubstances}>Controlled Substances</Link>: your DEA registrations, who may sign controlled
            substances at your practice, and the daily EPCS report.
          </p>
        </section>
      ) : null}
      {userId ? <SecuritySettings userId={userId} /> : null}
    </Page>
  );
}
