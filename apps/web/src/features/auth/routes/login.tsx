import { ROUTES } from '@hcp/contract';
import { Navigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { readSession } from '../../../lib/storage.ts';
import { useSignInOptions } from '../api/sign-in-options.ts';
import { GoogleSignInButton } from '../components/google-sign-in-button.tsx';
import { LoginFormCard } from '../components/login-form.tsx';

/** Shown only when the server has a Google client id; nothing at all while unknown or on error. */
function GoogleSignIn() {
  const options = useSignInOptions();
  const clientId = options.data?.googleClientId;
  if (!clientId) return null;
  return (
    <section aria-labelledby="google-sign-in-heading">
      <h2 id="google-sign-in-heading">Or sign in with Google</h2>
      <GoogleSignInButton clientId={clientId} />
    </section>
  );
}

export default function LoginRoute() {
  if (readSession()) return <Navigate to={ROUTES.actionNeeded} replace />;
  return (
    <Page title="Sign in" narrow>
      <p>Sign in to act on the prescriptions that need you.</p>
      <LoginFormCard />
      <GoogleSignIn />
    </Page>
  );
}
