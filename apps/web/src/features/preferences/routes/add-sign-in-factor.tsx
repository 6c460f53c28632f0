import { ROUTES, SIGN_IN_POLICY_MESSAGES } from '@hcp/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import controls from '../../../components/controls.module.css';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Page } from '../../../components/page.tsx';
import { api } from '../../../lib/api-client.ts';
import { readSession } from '../../../lib/storage.ts';
import { useSignInFactors } from '../api/get-sign-in-factors.ts';
import { SignInFactorsSection } from '../components/sign-in-factors.tsx';

/**
 * /add-sign-in-factor (issue 48, decision 0060): the user's practice or provider requires a passkey or an
 * authenticator app and they have none. Right after signing in (their token is good for nothing else) they add one
 * here, then continue with a full session.
 */
export default function AddSignInFactorRoute() {
  const session = readSession();
  const userId = session?.userId ?? '';
  const factors = useSignInFactors(userId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!session) return <Navigate to={ROUTES.login} replace />;
  const added = Boolean(factors.data && (factors.data.authenticatorApp || factors.data.passkeys.length > 0));
  const proceed = async () => {
    setBusy(true);
    const outcome = await api.renewSession();
    if (outcome === 'refused') return navigate(ROUTES.logout, { replace: true });
    if (outcome !== 'renewed') {
      setBusy(false);
      return setProblem('Could not continue. Check your connection and try again.');
    }
    // Nothing read with the restricted token is kept.
    queryClient.clear();
    navigate(ROUTES.actionNeeded, { replace: true });
  };
  return (
    <Page title="Add a passkey or an authenticator app">
      <p>{SIGN_IN_POLICY_MESSAGES.enrolFirst}</p>
      <SignInFactorsSection userId={userId} />
      {added ? (
        <p>
          <button type="button" className={controls.primary} disabled={busy} onClick={() => void proceed()}>
            {busy ? 'Continuing…' : 'Continue to HCP Portal'}
          </button>
        </p>
      ) : null}
      <FormAlert message={problem} />
      <p>
        <Link to={ROUTES.logout}>Log out</Link>
      </p>
    </Page>
  );
}
