import { ROUTES } from '@hcp/contract';
import { Navigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { storage } from '../../../lib/storage.ts';
import { VerifyFormCard } from '../components/verify-form.tsx';

export default function LoginVerifyRoute() {
  const userToken = storage.get('userToken');
  if (!userToken) return <Navigate to={ROUTES.login} replace />;
  const maskedEmail = storage.get('maskedEmail');
  const maskedPhone = storage.get('maskedPhone');
  return (
    <Page title="Verify it’s you" narrow>
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
      <VerifyFormCard userToken={userToken} />
    </Page>
  );
}
