import { Page } from '../../../components/page.tsx';

export default function ActionNeededDetailRoute() {
  return <Page title="Prescription" />;
}
