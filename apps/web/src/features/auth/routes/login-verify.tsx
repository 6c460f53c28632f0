import { MFA_METHOD_TEXT, MFA_METHODS, type MfaMethod, ROUTES } from '@hcp/contract';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { storage } from '../../../lib/storage.ts';
import { VerifyFormCard } from '../components/verify-form.tsx';

/** The methods the sign-in answer offered (issue 48), in its order; a mailed code when it named none. */
function offeredMethods(): MfaMethod[] {
  const stored = (storage.get('mfaMethods') ?? '').split(',');
  const known = stored.filter((m): m is MfaMethod => (MFA_METHODS as readonly string[]).includes(m));
  return known.length > 0 ? known : ['email'];
}

export default function LoginVerifyRoute() {
  const userToken = storage.get('userToken');
  const [methods] = useState(offeredMethods);
  const [method, setMethod] = useState<MfaMethod>(methods[0] ?? 'email');
  if (!userToken) return <Navigate to={ROUTES.login} replace />;
  const maskedEmail = storage.get('maskedEmail');
  const maskedPhone = storage.get('maskedPhone');
  return (
    <Page title="Verify it’s you" narrow>
      {method === 'email' ? (
        <p>
          We sent a 6-digit verification code to {maskedEmail ? <strong>{maskedEmail}</strong> : 'your e-mail'}
          {maskedPhone ? (
            <>
              {' '}
              (account phone <strong>{maskedPhone}</strong>)
            </>
          ) : null}
          . It is valid for 10 minutes.
        </p>
      ) : (
        <p>{MFA_METHOD_TEXT[method].prompt}</p>
      )}
      <VerifyFormCard userToken={userToken} methods={methods} method={method} onMethod={setMethod} />
    </Page>
  );
}
