import { ROUTES } from '@hcp/contract';
import { Navigate } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { readSession } from '../../../lib/storage.ts';
import { LoginFormCard } from '../components/login-form.tsx';

export default function LoginRoute() {
  if (readSession()) return <Navigate to={ROUTES.actionNeeded} replace />;
  return (
    <Page title="Sign in">
      <p>Sign in to act on the prescriptions that need you.</p>
      <LoginFormCard />
    </Page>
  );
}
