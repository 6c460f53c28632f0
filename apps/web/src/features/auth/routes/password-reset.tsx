import { Page } from '../../../components/page.tsx';

export default function PasswordResetRoute() {
  return <Page title="Choose a new password" />;
}
