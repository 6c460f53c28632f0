import { Page } from '../../../components/page.tsx';

export default function PasswordResetRequestRoute() {
  return <Page title="Reset your password" />;
}
