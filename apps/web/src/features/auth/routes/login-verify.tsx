import { Page } from '../../../components/page.tsx';

export default function LoginVerifyRoute() {
  return <Page title="Verify it’s you" />;
}
