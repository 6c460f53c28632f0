import { ROUTES } from '@hcp/contract';
import { Link } from 'react-router';
import { Page } from '../../../components/page.tsx';

export default function PasswordResetExpiredRoute() {
  return (
    <Page title="This reset link has expired" narrow>
      <p>Password reset links work once and only for a short time.</p>
      <p>
        <Link to={ROUTES.passwordResetRequest}>Request a new reset link</Link>
      </p>
    </Page>
  );
}
