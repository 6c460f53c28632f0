import { Page } from '../../../components/page.tsx';

export default function PreferencesRoute() {
  return <Page title="Preferences" />;
}
