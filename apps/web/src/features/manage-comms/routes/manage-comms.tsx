import { Page } from '../../../components/page.tsx';

export default function ManageCommsRoute() {
  return <Page title="Manage Communications" />;
}
