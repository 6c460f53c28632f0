import { Page } from '../../../components/page.tsx';

export default function PatientSearchRoute() {
  return <Page title="All Patients" />;
}
