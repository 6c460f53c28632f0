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
      {userId ? <SecuritySettings userId={userId} /> : null}
    </Page>
  );
}
