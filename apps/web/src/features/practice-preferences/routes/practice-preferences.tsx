import { Page } from '../../../components/page.tsx';

export default function PracticePreferencesRoute() {
  return <Page title="Practice Preferences" />;
}
