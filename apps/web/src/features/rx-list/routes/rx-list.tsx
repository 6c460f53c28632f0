import { Page } from '../../../components/page.tsx';

export default function RxListRoute() {
  return <Page title="New Prescriptions List" />;
}
