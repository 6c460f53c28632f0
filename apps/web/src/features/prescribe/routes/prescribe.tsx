import { Page } from '../../../components/page.tsx';

export default function PrescribeRoute() {
  return <Page title="Prescribe Rx" />;
}
