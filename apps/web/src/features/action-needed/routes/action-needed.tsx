import { Page } from '../../../components/page.tsx';

export default function ActionNeededRoute() {
  return <Page title="Action Needed" />;
}
