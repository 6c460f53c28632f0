import { Page } from '../../../components/page.tsx';
import { readSession } from '../../../lib/storage.ts';
import { SecuritySettings } from '../components/security-settings.tsx';

export default function PreferencesRoute() {
  const userId = readSession()?.userId;
  return <Page title="Preferences">{userId ? <SecuritySettings userId={userId} /> : null}</Page>;
}
