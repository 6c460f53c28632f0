import { Page } from '../../../components/page.tsx';

export default function PatientDetailRoute() {
  return <Page title="Patient" />;
}
