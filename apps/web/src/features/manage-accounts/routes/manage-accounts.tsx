import { Page } from '../../../components/page.tsx';

export default function ManageAccountsRoute() {
  return <Page title="Manage Accounts" />;
}
