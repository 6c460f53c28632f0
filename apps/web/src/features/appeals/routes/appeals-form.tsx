import { Page } from '../../../components/page.tsx';

export default function AppealsFormRoute() {
  return <Page title="HCP Appeal" />;
}
