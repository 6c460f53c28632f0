import { normalizeError, ROUTES } from '@hcp/contract';
import { Link, type LoaderFunctionArgs, redirect, useLoaderData } from 'react-router';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { Page } from '../../../components/page.tsx';
import { googleLogin } from '../api/google-login.ts';
import { applyLoginAnswer } from '../utils/apply-login-answer.ts';

/**
 * google/{token}: exchanges Google's ID token for a session before anything renders (a route loader, so
 * the exchange runs once per visit), then continues like the password login. A refusal is shown here.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  if (!params.token) return redirect(ROUTES.login);
  try {
    const next = applyLoginAnswer(await googleLogin(params.token));
    if (next.kind === 'external') {
      window.location.assign(next.url);
      return { error: null };
    }
    return redirect(next.to);
  } catch (error) {
    return { error: normalizeError(error, 'Google sign-in failed. Please try again.').message };
  }
}

export default function GoogleLoginRoute() {
  const { error } = useLoaderData<typeof loader>();
  return (
    <Page title="Sign in with Google" narrow>
      <div className={styles.card}>
        {error ? <FormAlert message={error} /> : <p role="status">Taking you to the portal…</p>}
        <p className={styles.links}>
          <Link to={ROUTES.login}>Back to sign in</Link>
        </p>
      </div>
    </Page>
  );
}
